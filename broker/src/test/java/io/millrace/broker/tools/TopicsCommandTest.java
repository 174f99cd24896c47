package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

public class TopicsCommandTest {

    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = TopicsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    public void createListDescribeDelete() throws Exception {
        String server = cluster.bootstrapServers();
        Result created = run("--bootstrap-server", server, "--create", "--topic", "orders", "--partitions", "3",
            "--config", "retention.ms=3600000");
        assertEquals(created.err(), 0, created.code());
        assertEquals("Created topic orders.\n", created.out());

        Result again = run("--bootstrap-server", server, "--create", "--topic", "orders");
        assertEquals(1, again.code());
        assertTrue(again.err(), again.err().contains("TOPIC_ALREADY_EXISTS"));

        Result listed = run("--zookeeper", cluster.zookeeperConnect(), "--list");
        assertEquals(0, listed.code());
        assertTrue(listed.out(), listed.out().lines().anyMatch("orders"::equals));

        Result described = run("--bootstrap-server", server, "--describe", "--topic", "orders");
        assertEquals(0, described.code());
        assertTrue(described.out(), described.out().startsWith("Topic: orders\tPartitionCount: 3"));
        assertEquals(4, described.out().lines().count());
        assertTrue(described.out().contains("Partition: 2\tLeader: 0"));

        Result deleted = run("--bootstrap-server", server, "--delete", "--topic", "orders");
        assertEquals(deleted.err(), 0, deleted.code());
        Result gone = run("--bootstrap-server", server, "--describe", "--topic", "orders");
        assertEquals(1, gone.code());
        assertTrue(gone.err().contains("does not exist"));
    }

    @Test
    public void describeShowsATopicsOverridesAndAlterChangesThem() throws Exception {
        String server = cluster.bootstrapServers();
        assertEquals(0, run("--bootstrap-server", server, "--create", "--topic", "tuned", "--config",
            "retention.ms=3600000").code());
        Result described = run("--bootstrap-server", server, "--describe", "--topic", "tuned");
        assertTrue(described.out(), described.out().startsWith(
            "Topic: tuned\tPartitionCount: 1\tReplicationFactor: 1\tConfigs: retention.ms=3600000\n"));

        Result altered = run("--bootstrap-server", server, "--alter", "--topic", "tuned", "--config", "segment.ms=600000",
            "--config", "max.message.bytes=2000", "--delete-config", "retention.ms");
        assertEquals(altered.err(), 0, altered.code());
        assertEquals("Updated config for topic tuned.\n", altered.out());
        described = run("--bootstrap-server", server, "--describe", "--topic", "tuned");
        assertTrue(described.out(), described.out().contains("\tConfigs: max.message.bytes=2000,segment.ms=600000\n"));

        Result bad = run("--bootstrap-server", server, "--alter", "--topic", "tuned", "--config", "retention.ms=soon");
        assertEquals(1, bad.code());
        assertTrue(bad.err(), bad.err().contains("INVALID_CONFIG") && bad.err().contains("retention.ms"));
        Result missing = run("--bootstrap-server", server, "--alter", "--topic", "absent", "--config", "retention.ms=1");
        assertEquals(1, missing.code());
        assertTrue(missing.err(), missing.err().contains("UNKNOWN_TOPIC_OR_PARTITION"));
        Result nothing = run("--bootstrap-server", server, "--alter", "--topic", "tuned");
        assertEquals(2, nothing.code());
        assertTrue(nothing.err(), nothing.err().contains("--alter needs --config"));
    }

    @Test
    public void alterGrowsATopicButNeverShrinksIt() throws Exception {
        String server = cluster.bootstrapServers();
        assertEquals(0, run("--bootstrap-server", server, "--create", "--topic", "growing", "--partitions", "2").code());
        Result grown = run("--bootstrap-server", server, "--alter", "--topic", "growing", "--partitions", "5");
        assertEquals(grown.err(), 0, grown.code());
        assertEquals("Topic growing now has 5 partitions.\n", grown.out());
        Result described = run("--bootstrap-server", server, "--describe", "--topic", "growing");
        assertTrue(described.out(), described.out().startsWith("Topic: growing\tPartitionCount: 5"));
        assertTrue(described.out(), described.out().contains("Partition: 4\tLeader: 0"));

        Result shrunk = run("--bootstrap-server", server, "--alter", "--topic", "growing", "--partitions", "3");
        assertEquals(1, shrunk.code());
        assertTrue(shrunk.err(), shrunk.err().contains("INVALID_PARTITIONS: Topic currently has 5 partitions, which is higher "
            + "than the requested 3."));
        Result nothing = run("--bootstrap-server", server, "--alter", "--topic", "growing");
        assertEquals(2, nothing.code());
        assertTrue(nothing.err(), nothing.err().contains("--partitions N"));
    }

    @Test
    public void badUsageExplainsItself() throws Exception {
        Result noAction = run("--bootstrap-server", cluster.bootstrapServers());
        assertEquals(2, noAction.code());
        assertTrue(noAction.err().contains("--create, --list"));
        Result badPartitions = run("--bootstrap-server", "h:1", "--create", "--topic", "t", "--partitions", "zero");
        assertEquals(2, badPartitions.code());
        assertTrue(badPartitions.err().contains("positive number"));
        Result badAssignment = run("--bootstrap-server", "h:1", "--create", "--topic", "t", "--replica-assignment", "0:x");
        assertEquals(2, badAssignment.code());
        assertTrue(badAssignment.err(), badAssignment.err().contains("1:2,2:3"));
        Result assignmentAndCount = run("--bootstrap-server", "h:1", "--create", "--topic", "t", "--partitions", "2",
            "--replica-assignment", "0,0");
        assertEquals(2, assignmentAndCount.code());
        assertTrue(assignmentAndCount.err(), assignmentAndCount.err().contains("cannot be used with --partitions"));
        Result shortAssignment = run("--bootstrap-server", "h:1", "--alter", "--topic", "t", "--partitions", "3",
            "--replica-assignment", "0,0");
        assertEquals(2, shortAssignment.code());
        assertTrue(shortAssignment.err(), shortAssignment.err().contains("list all 3 partitions"));
        Result invalidName = run("--bootstrap-server", cluster.bootstrapServers(), "--create", "--topic", "bad/name");
        assertEquals(1, invalidName.code());
        assertTrue(invalidName.err(), invalidName.err().contains("INVALID_TOPIC"));
    }
}
