package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.input.TopicRecreatedException;
import io.millrace.hadoop.state.CommittedOffset;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.StateDir;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A topic deleted and created again that grows past the committed offset: the load notices the new topic
 * id instead of skipping the new topic's first messages, fails by default, and reads it from its start
 * when told to.
 */
public class RecreatedTopicTest {

    private static final String TOPIC = "reborn";

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void aRecreatedTopicFailsTheLoadByDefaultAndIsReadFromItsStartWhenRestartIsSet() throws Exception {
        cluster.createTopic(TOPIC, 2);
        Map<String, Object> settings = cluster.loadSettings("reborn", TOPIC);
        List<SentEvent> sent = new ArrayList<>(cluster.produce(TOPIC, 2, 300, 2, 0));
        assertEquals(600, LoadJobTest.load(cluster, settings).records());
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        String firstId = state.newest().orElseThrow().offsets().get(0).topicId();
        assertTrue("the committed offsets carry the topic id: " + firstId, firstId != null && !firstId.isEmpty());

        recreate(TOPIC, 2);
        // More messages than were loaded: an offset check alone sees nothing wrong.
        List<SentEvent> second = cluster.produce(TOPIC, 2, 500, 2, 1_000);
        try {
            LoadJobTest.load(cluster, settings);
            fail("a load over a recreated topic must not skip its first 300 offsets per partition");
        } catch (TopicRecreatedException e) {
            assertTrue(e.getMessage(), e.getMessage().contains(TOPIC) && e.getMessage().contains(firstId)
                && e.getMessage().contains(LoadConfig.RECREATED_TOPIC_CONFIG));
        }
        assertEquals("nothing was committed", 1, state.newest().orElseThrow().sequence());

        settings.put(LoadConfig.RECREATED_TOPIC_CONFIG, LoadConfig.RECREATED_RESTART);
        LoadSummary summary = LoadJobTest.load(cluster, settings);
        assertEquals("the new topic is read from its start", 1_000, summary.records());
        assertEquals(List.of(TOPIC), summary.restartedTopics());
        Manifest manifest = state.newest().orElseThrow();
        assertEquals(List.of(TOPIC), manifest.restartedTopics());
        for (CommittedOffset offset : manifest.offsets()) {
            assertEquals(500, offset.offset());
            assertTrue("the new id is kept", !firstId.equals(offset.topicId()));
        }
        sent.addAll(second);
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(sent, false);

        settings.remove(LoadConfig.RECREATED_TOPIC_CONFIG);
        assertNull("the next load knows the new topic and finds nothing new", LoadJobTest.load(cluster, settings));
    }

    private static void recreate(String topic, int partitions) throws Exception {
        cluster.brokers().broker(0).cluster().deleteTopic(topic).get(30, TimeUnit.SECONDS);
        Conditions.waitUntil(() -> !cluster.brokers().broker(0).cluster().metadata().snapshot().hasTopic(topic),
            "the topic to be deleted");
        cluster.createTopic(topic, partitions);
    }
}
