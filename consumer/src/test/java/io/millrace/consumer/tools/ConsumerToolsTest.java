package io.millrace.consumer.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerIterator;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.TestProducer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The consumer's command-line tools, driven through their main classes against a real cluster. */
public class ConsumerToolsTest {

    private static LocalCluster cluster;
    private static TestProducer producer;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        producer = new TestProducer(cluster.bootstrapServers());
    }

    @AfterClass
    public static void stop() {
        producer.close();
        cluster.close();
    }

    /** Output and exit code of one tool run. */
    private record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    private interface Tool {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    private static Run run(Tool tool, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = tool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Run console(String... args) {
        return run((a, out, err) -> ConsoleConsumer.run(a, out, err, new AtomicBoolean()), args);
    }

    @Test
    public void consoleConsumerInAGroupPrintsKeysAndValuesThenRemovesItsThrowAwayGroup() throws Exception {
        cluster.createTopic("console", 2);
        List<String> sent = producer.produce("console", 2, 10, "c");
        Run run = console("--zookeeper", cluster.zookeeperConnect(), "--topic", "console", "--from-beginning",
            "--max-messages", "20", "--property", "print.key=true", "--property", "key.separator=:");
        assertEquals(run.err, 0, run.exitCode);
        List<String> values = new ArrayList<>();
        for (String line : run.lines()) {
            assertTrue(line, line.matches("k\\d+:c-\\d-\\d+"));
            values.add(line.substring(line.indexOf(':') + 1));
        }
        assertEquals(new HashSet<>(sent), new HashSet<>(values));
        assertEquals(20, values.size());
        assertTrue(run.err, run.err.contains("Processed a total of 20 messages"));
        Run groups = run(ConsumerGroupsCommand::run, "--zookeeper", cluster.zookeeperConnect(), "--list");
        assertFalse(groups.out, groups.out.contains("console-consumer-"));
    }

    @Test
    public void consoleConsumerWithOnlyABootstrapServerReadsEveryPartition() throws Exception {
        cluster.createTopic("console-plain", 3);
        List<String> sent = producer.produce("console-plain", 3, 5, "p");
        Run run = console("--bootstrap-server", cluster.bootstrapServers(), "--topic", "console-plain",
            "--from-beginning", "--max-messages", "15");
        assertEquals(run.err, 0, run.exitCode);
        assertEquals(new HashSet<>(sent), new HashSet<>(run.lines()));
        assertEquals(15, run.lines().size());
    }

    @Test
    public void consoleConsumerRejectsABadCommandLine() {
        Run run = console("--topic", "x", "--frobnicate");
        assertEquals(2, run.exitCode);
        assertTrue(run.err, run.err.contains("Unknown argument --frobnicate") && run.err.contains("Usage"));
    }

    @Test
    public void consumerGroupsDescribesListsAndResetsOffsets() throws Exception {
        cluster.createTopic("described", 2);
        producer.produce("described", 2, 10, "d");
        String zk = cluster.zookeeperConnect();
        try (GroupConsumer<String, String> consumer = groupConsumer("g-described")) {
            consumeAll(consumer, "described", 20);
            consumer.commit();
            Run live = run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--describe", "--group", "g-described");
            assertTrue(live.out, live.out.contains(consumer.consumerId() + "-0"));
            Run refused = run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--reset-offsets", "--group", "g-described",
                "--topic", "described", "--to-earliest", "--execute");
            assertEquals(1, refused.exitCode);
            assertTrue(refused.err, refused.err.contains("live members"));
        }
        assertTrue(run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--list").lines().contains("g-described"));
        Run described = run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--describe", "--group", "g-described");
        assertEquals(3, described.lines().size());
        assertTrue(described.out, described.lines().get(1).matches("described\\s+0\\s+10\\s+10\\s+0\\s+-\\s*"));

        Run dryRun = run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--reset-offsets", "--group", "g-described",
            "--topic", "described", "--to-earliest");
        assertTrue(dryRun.out, dryRun.out.contains("dry run") && dryRun.lines().get(1).matches("described\\s+0\\s+0"));
        assertTrue(run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--describe", "--group", "g-described")
            .lines().get(1).matches("described\\s+0\\s+10\\s+.*"));
        Run reset = run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--reset-offsets", "--group", "g-described",
            "--topic", "described", "--to-earliest", "--execute");
        assertEquals(reset.err, 0, reset.exitCode);
        assertTrue(run(ConsumerGroupsCommand::run, "--zookeeper", zk, "--describe", "--group", "g-described")
            .lines().get(1).matches("described\\s+0\\s+0\\s+10\\s+10\\s+-\\s*"));
        try (GroupConsumer<String, String> again = groupConsumer("g-described")) {
            assertEquals("the reset group reads everything again", 20, consumeAll(again, "described", 20).size());
        }
    }

    @Test
    public void resetToADatetimeFindsTheFirstOffsetAtThatTime() throws Exception {
        cluster.createTopic("dated", 1);
        producer.produceTo("dated", 0, 5, "old", 1_000_000L);
        producer.produceTo("dated", 0, 5, "new", 2_000_000L);
        Run reset = run(ConsumerGroupsCommand::run, "--zookeeper", cluster.zookeeperConnect(), "--reset-offsets",
            "--group", "g-dated", "--topic", "dated", "--to-datetime", "1970-01-01T00:25:00Z", "--execute");
        assertEquals(reset.err, 0, reset.exitCode);
        assertTrue(reset.out, reset.lines().get(1).matches("dated\\s+0\\s+5"));
        assertEquals(1_500_000L, ConsumerGroupsCommand.parseTime("1970-01-01T00:25:00"));
    }

    @Test
    public void perfConsumerReportsThroughputBothWays() throws Exception {
        cluster.createTopic("perf", 2);
        producer.produce("perf", 2, 100, "x");
        for (String[] extra : List.of(new String[0], new String[] {"--zookeeper", cluster.zookeeperConnect()})) {
            List<String> args = new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrapServers(), "--topic", "perf",
                "--messages", "200", "--fetch-size", "4096"));
            args.addAll(List.of(extra));
            Run run = run(PerfConsumer::run, args.toArray(new String[0]));
            assertEquals(run.err, 0, run.exitCode);
            assertEquals("records, MB, elapsed s, records/s, MB/s", run.lines().get(0));
            assertTrue(run.out, run.lines().get(1).startsWith("200, "));
        }
    }

    private GroupConsumer<String, String> groupConsumer(String group) {
        return new GroupConsumer<>(new ConsumerConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
            ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest",
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100, ConsumerConfig.CONSUMER_TIMEOUT_MS_CONFIG, 10_000)),
            new StringDeserializer(), new StringDeserializer());
    }

    private static List<ConsumerRecord<String, String>> consumeAll(GroupConsumer<String, String> consumer, String topic, int n) {
        ConsumerIterator<String, String> stream = consumer.createMessageStreams(Map.of(topic, 1)).get(topic).get(0).iterator();
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        while (records.size() < n && stream.hasNext()) {
            records.add(stream.next());
        }
        stream.markProcessed();
        return records;
    }
}
