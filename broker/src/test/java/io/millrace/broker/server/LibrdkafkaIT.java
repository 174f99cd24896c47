package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.PythonEnvironment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Millrace as librdkafka uses it (kcat, confluent-kafka, every librdkafka binding): Confluent's
 * Python client, installed from PyPI into a virtual environment under target/, runs scripts against
 * two Millrace brokers. balanced_consumers.py, once per assignment strategy and once on the consumer
 * group protocol (group.protocol=consumer, the coordinator assigning), checks every record is
 * read exactly once across a member leaving, that the group is listed and described by librdkafka's
 * admin client, and that the commits reach the log end; admin_calls.py checks librdkafka's admin
 * calls on topics, partitions, configurations, offsets, records, leaders and group offsets.
 *
 * <p>Without python3, or with PyPI out of reach, the test is skipped with a reason: the check
 * needs a client nobody here wrote, and there is no JVM binding of librdkafka.
 */
public class LibrdkafkaIT {

    private static final Logger LOG = LoggerFactory.getLogger(LibrdkafkaIT.class);

    /** librdkafka 2.12 inside; pinned so that the build is repeatable. */
    static final String CONFLUENT_KAFKA = "confluent-kafka==2.12.2";
    private static final int PARTITIONS = 6;

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2,
        Map.of("group.min.session.timeout.ms", 1_000, "group.consumer.heartbeat.interval.ms", 300));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static PythonEnvironment python;

    @BeforeClass
    public static void installConfluentKafka() throws Exception {
        python = PythonEnvironment.install(Path.of("target", "librdkafka-venv"), CONFLUENT_KAFKA);
    }

    @Test(timeout = 240_000)
    public void librdkafkasRangeAndRoundRobinAssignorsReadEveryRecordOnce() throws Exception {
        runScript("librdkafka-eager", "range,roundrobin");
    }

    @Test(timeout = 240_000)
    public void librdkafkasCooperativeStickyAssignorReadsEveryRecordOnce() throws Exception {
        runScript("librdkafka-cooperative", "cooperative-sticky");
    }

    @Test(timeout = 240_000)
    public void librdkafkasConsumerGroupProtocolReadsEveryRecordOnce() throws Exception {
        runScript("librdkafka-kip848", "consumer");
    }

    @Test(timeout = 240_000)
    public void librdkafkasAdminClientChangesWhatEachCallSays() throws Exception {
        Path script = Path.of("target", "test-classes", "librdkafka", "admin_calls.py");
        PythonEnvironment.Result result = python.run(script, List.of(CLUSTER.bootstrapServers(), "librdkafka-admin"), 200);
        LOG.info("admin_calls.py: {}", result.output());
        assertEquals("admin_calls.py failed: " + result.output(), 0, result.exit());
        assertTrue(result.output(), result.output().contains("admin calls: ok"));
    }

    private void runScript(String topic, String strategy) throws Exception {
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        Path script = Path.of("target", "test-classes", "librdkafka", "balanced_consumers.py");
        PythonEnvironment.Result result = python.run(script, List.of(CLUSTER.bootstrapServers(), topic,
            String.valueOf(PARTITIONS), strategy), 200);
        LOG.info("balanced_consumers.py {}: {}", strategy, result.output());
        assertEquals("balanced_consumers.py failed: " + result.output(), 0, result.exit());
        assertTrue(result.output(), result.output().contains("\"records\": 4500"));
    }
}
