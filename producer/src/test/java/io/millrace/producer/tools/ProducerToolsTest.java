package io.millrace.producer.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.client.BootstrapServers;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.ListOffsetsResponse;
import io.millrace.producer.PartitionContents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** console-producer and perf-producer against a local cluster, driven in-process as the launcher runs them. */
public class ProducerToolsTest {

    private static final Pattern SUMMARY = Pattern.compile("(\\d+) records sent, ([\\d.]+) records/sec \\(([\\d.]+) MB/sec\\), "
        + "([\\d.]+) ms avg latency, ([\\d.]+) ms max latency, ([\\d.]+) ms 50th, ([\\d.]+) ms 95th, ([\\d.]+) ms 99th, "
        + "([\\d.]+) ms 99.9th\\.");

    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start();
        cluster.createTopic("perf", 2);
        cluster.createTopic("console", 1);
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void perfProducerPrintsASummaryWhoseNumbersAddUp() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PerfProducer.Summary summary = PerfProducer.run(new String[] {"--topic", "perf", "--num-records", "20000",
            "--record-size", "200", "--throughput", "-1", "--bootstrap-server", cluster.bootstrapServers(),
            "--producer-props", "batch.size=10000", "linger.ms=2", "acks=1", "compression.type=lz4"},
            new PrintStream(printed, true, StandardCharsets.UTF_8));
        String output = printed.toString(StandardCharsets.UTF_8);
        Matcher line = SUMMARY.matcher(output);
        assertTrue("no summary line in:\n" + output, line.find());
        assertEquals(20_000L, Long.parseLong(line.group(1)));
        double recordsPerSec = Double.parseDouble(line.group(2));
        double mbPerSec = Double.parseDouble(line.group(3));
        assertTrue(recordsPerSec > 0);
        assertEquals(recordsPerSec * 200 / (1024 * 1024), mbPerSec, 0.01 + mbPerSec * 0.01);
        double avg = Double.parseDouble(line.group(4));
        double max = Double.parseDouble(line.group(5));
        double p50 = Double.parseDouble(line.group(6));
        double p999 = Double.parseDouble(line.group(9));
        assertTrue(p50 <= p999 && p999 <= max && avg <= max);
        assertEquals(0, summary.errors());
        assertEquals(20_000L, endOffset("perf", 0) + endOffset("perf", 1));
    }

    @Test
    public void perfProducerKeepsToTheRequestedThroughput() throws Exception {
        long start = System.nanoTime();
        PerfProducer.Summary summary = PerfProducer.run(new String[] {"--topic", "perf", "--num-records", "300",
            "--record-size", "100", "--throughput", "1000", "--bootstrap-server", cluster.bootstrapServers()},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(300, summary.records());
        assertTrue("300 records at 1000/s took " + elapsedMs + " ms", elapsedMs >= 290);
    }

    @Test
    public void consoleProducerSendsEachLineWithItsKey() throws Exception {
        long before = endOffset("console", 0);
        String input = "a:first\nb:second\na:third\n";
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ConsoleProducer.run(new String[] {"--bootstrap-server", cluster.bootstrapServers(), "--topic", "console",
            "--property", "parse.key=true", "--property", "key.separator=:", "--producer-property", "linger.ms=1"},
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(err.toString(StandardCharsets.UTF_8), 0, status);
        assertEquals(before + 3, endOffset("console", 0));
        List<PartitionContents.Stored> stored = PartitionContents.read(cluster.bootstrapServers(), "console", 0);
        List<PartitionContents.Stored> sent = stored.subList(stored.size() - 3, stored.size());
        assertEquals(List.of("a", "b", "a"), sent.stream().map(PartitionContents.Stored::key).toList());
        assertEquals(List.of("first", "second", "third"), sent.stream().map(PartitionContents.Stored::value).toList());
    }

    @Test
    public void consoleProducerFindsTheClusterThroughZooKeeper() throws Exception {
        long before = endOffset("console", 0);
        int status = ConsoleProducer.run(new String[] {"--zookeeper", cluster.zookeeperConnect(), "--topic", "console"},
            new ByteArrayInputStream("one\ntwo\n".getBytes(StandardCharsets.UTF_8)), System.err);
        assertEquals(0, status);
        assertEquals(before + 2, endOffset("console", 0));
    }

    @Test
    public void consoleProducerFailsClearlyForAnUnknownTopic() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int status = ConsoleProducer.run(new String[] {"--bootstrap-server", cluster.bootstrapServers(), "--topic", "nowhere",
            "--producer-property", "max.block.ms=300"},
            new ByteArrayInputStream("x\ny\n".getBytes(StandardCharsets.UTF_8)), new PrintStream(err, true, StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status);
        assertTrue(message, message.contains("nowhere") && message.contains("not present in metadata"));
        assertTrue((System.nanoTime() - start) / 1_000_000 < 10_000);
    }

    private static long endOffset(String topic, int partition) throws Exception {
        try (NetworkClient client = new NetworkClient(NetworkClient.Options.defaults("offsets"));
             Metadata metadata = new Metadata(client, BootstrapServers.parse(cluster.bootstrapServers()), 50, 300_000)) {
            var leader = metadata.awaitTopic(topic, 10_000).leaderFor(new io.millrace.common.TopicPartition(topic, partition));
            ListOffsetsRequest request = new ListOffsetsRequest(-1, (byte) 0, List.of(new ListOffsetsRequest.ListOffsetsTopic(topic,
                List.of(new ListOffsetsRequest.ListOffsetsPartition(partition, -1, ListOffsetsRequest.LATEST_TIMESTAMP)))));
            ListOffsetsResponse response = client.<ListOffsetsResponse>send(leader, request).get(10, TimeUnit.SECONDS);
            return response.topics().get(0).partitions().get(0).offset();
        }
    }
}
