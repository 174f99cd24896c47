package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** Fetches waiting for data, over a raw socket: bounded, dropped with their client, answered when their topic goes. */
public class FetchWaitTest {

    private static final long CAP_MS = 3_000;
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1,
        Map.of(BrokerConfig.FETCH_MAX_WAIT_CAP_MS_CONFIG, CAP_MS));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final short FETCH_V = 12;

    private static FetchRequest waitingFetch(String topic, int maxWaitMs) {
        return new FetchRequest(-1, maxWaitMs, 1, 1024 * 1024, (byte) 0, 0, -1,
            List.of(new FetchRequest.FetchTopic(topic, List.of(FetchRequest.FetchPartition.of(0, 0, 1024)))), List.of(), "");
    }

    private static int waitingFetches() {
        return CLUSTER.broker(0).purgatory().size();
    }

    @Test
    public void aFetchAskingToWaitForDaysIsAnsweredAfterTheCap() throws Exception {
        CLUSTER.createTopic("quiet", 1, Map.of());
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            long start = System.nanoTime();
            client.send(waitingFetch("quiet", Integer.MAX_VALUE), FETCH_V);
            FetchResponse response = (FetchResponse) client.receive(ApiKey.FETCH, FETCH_V);
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(Errors.NONE.code(), response.responses().get(0).partitions().get(0).errorCode());
            assertTrue("waited " + waitedMs + " ms", waitedMs >= CAP_MS - 100 && waitedMs < CAP_MS + 5_000);
        }
    }

    @Test
    public void aWaitingFetchWhoseClientLeftIsDropped() throws Exception {
        CLUSTER.createTopic("abandoned", 1, Map.of());
        RawClient client = new RawClient(CLUSTER.broker(0).boundPort());
        client.send(waitingFetch("abandoned", 60_000), FETCH_V);
        Conditions.waitUntil(() -> waitingFetches() == 1, 10_000, "the fetch to wait");
        client.close();
        long start = System.nanoTime();
        Conditions.waitUntil(() -> waitingFetches() == 0, CAP_MS - 500, "the abandoned fetch to be dropped");
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < CAP_MS);
    }

    @Test
    public void aFetchWaitingOnATopicThatIsDeletedIsAnsweredAtOnce() throws Exception {
        CLUSTER.createTopic("deleted-while-waited", 1, Map.of());
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            client.send(waitingFetch("deleted-while-waited", 60_000), FETCH_V);
            Conditions.waitUntil(() -> waitingFetches() == 1, 10_000, "the fetch to wait");
            long start = System.nanoTime();
            CLUSTER.broker(0).cluster().deleteTopic("deleted-while-waited").get(30, TimeUnit.SECONDS);
            FetchResponse response = (FetchResponse) client.receive(ApiKey.FETCH, FETCH_V);
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue("answered " + waitedMs + " ms after the deletion", waitedMs < CAP_MS - 1_000);
            short error = response.responses().get(0).partitions().get(0).errorCode();
            assertTrue("error " + error, error == Errors.UNKNOWN_TOPIC_OR_PARTITION.code()
                || error == Errors.NOT_LEADER_OR_FOLLOWER.code());
        }
    }
}
