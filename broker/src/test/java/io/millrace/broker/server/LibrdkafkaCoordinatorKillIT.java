package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.PythonEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * librdkafka's consumers (Confluent's Python client, as in {@link LibrdkafkaIT}) across the death of
 * their group's coordinator: coordinator_kill.py reads a topic of 3 replicas with two members of a
 * group, and once a third is read the broker coordinating the group dies without a clean shutdown.
 * Its ZooKeeper session ends, another broker takes the group's partition of __consumer_offsets over
 * with the group's generation, and the members go on with their member ids and positions: no
 * rebalance, every record read exactly once.
 *
 * <p>Without python3, or with PyPI out of reach, the test is skipped with a reason.
 */
public class LibrdkafkaCoordinatorKillIT {

    private static final Logger LOG = LoggerFactory.getLogger(LibrdkafkaCoordinatorKillIT.class);
    private static final String TOPIC = "librdkafka-coordinator-kill";
    private static final int RECORDS = 60_000;

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 3, Map.of());
    private static final TemporaryFolder TEMP = new TemporaryFolder();

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER).around(TEMP);

    private static PythonEnvironment python;

    @BeforeClass
    public static void installConfluentKafka() throws Exception {
        python = PythonEnvironment.install(Path.of("target", "librdkafka-venv"), LibrdkafkaIT.CONFLUENT_KAFKA);
    }

    @Test(timeout = 300_000)
    public void theMembersKeepTheirIdsAndReadEveryRecordOnceWhenTheCoordinatorDies() throws Exception {
        Path script = Path.of("target", "test-classes", "librdkafka", "coordinator_kill.py");
        Path marker = TEMP.getRoot().toPath().resolve("third-read");
        String bootstrap = CLUSTER.bootstrapServers();
        CompletableFuture<PythonEnvironment.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return python.run(script, List.of(bootstrap, TOPIC, "6", String.valueOf(RECORDS), marker.toString()), 280);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Conditions.waitUntil(() -> Files.exists(marker) || run.isDone(), 200_000, "a third of the records read");
        assertTrue("the script ended early: " + (run.isDone() ? run.join().output() : ""), Files.exists(marker));
        int coordinator = CLUSTER.broker(0).groupCoordinator().findCoordinator(TOPIC + "-readers", 10_000);
        LOG.info("killing broker {}, the coordinator", coordinator);
        CLUSTER.crash(coordinator);

        PythonEnvironment.Result result = run.join();
        LOG.info("coordinator_kill.py: {}", result.output());
        assertEquals("coordinator_kill.py failed: " + result.output(), 0, result.exit());
        assertTrue(result.output(), result.output().contains("\"records\": " + RECORDS));
        assertTrue(result.output(), result.output().contains("\"ids_kept\": true"));
    }
}
