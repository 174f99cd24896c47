package io.millrace.examples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.record.CompressionType;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.GroupOffsets.PartitionLag;
import io.millrace.examples.QuickstartDemo.Event;
import io.millrace.examples.QuickstartDemo.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * The single-broker quickstart: {@code bin/millrace quickstart} runs this, so CI proves that a fresh checkout
 * starts ZooKeeper and a broker, and that Millrace's producer and group consumer get back every
 * event produced.
 */
public class QuickstartDemoTest {

    private static final int EXPECTED = CompressionType.values().length * QuickstartDemo.EVENTS_PER_CODEC;

    @Test(timeout = 60_000)
    public void everyProducedEventIsReadBackUnchangedAndTheGroupHasNoLag() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (LocalCluster cluster = LocalCluster.start()) {
            Result result = QuickstartDemo.run(cluster, new PrintStream(printed, true, StandardCharsets.UTF_8));

            assertEquals(EXPECTED, result.produced().size());
            assertEquals(EXPECTED, result.consumed().size());
            assertEquals(result.produced(), result.consumed());
            assertTrue(result.allReadBack());
            for (Event e : result.consumed()) {
                assertEquals("application/json", e.contentType());
                assertTrue(e.value(), e.value().startsWith("{\"user\":\"" + e.key() + "\""));
            }
            assertTrue("events on every partition", result.consumed().stream().map(Event::partition).distinct().count()
                == QuickstartDemo.PARTITIONS);
            assertGroupCommittedEverything(cluster.zookeeperConnect());
        }
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("Committed offsets of group quickstart"));
    }

    /** Checked apart from what the demo prints: the group's offsets as ZooKeeper holds them after the demo. */
    private static void assertGroupCommittedEverything(String zookeeper) {
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect", zookeeper)))) {
            List<PartitionLag> rows = offsets.describe(GroupReader.GROUP);
            assertEquals(QuickstartDemo.PARTITIONS, rows.size());
            long committed = 0;
            for (PartitionLag row : rows) {
                assertEquals(row.toString(), 0, row.lag());
                assertEquals(row.toString(), row.logEndOffset(), row.committedOffset());
                committed += row.committedOffset();
            }
            assertEquals(EXPECTED, committed);
        }
    }

    @Test(timeout = 60_000)
    public void mainEndsWithTheOkLineAndExitCodeZero() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int exitCode = QuickstartDemo.run(new String[0], new PrintStream(printed, true, StandardCharsets.UTF_8),
            System.err);

        assertEquals(0, exitCode);
        String[] lines = printed.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals("OK: produced " + EXPECTED + ", consumed " + EXPECTED, lines[lines.length - 1]);
    }

    @Test
    public void anUnknownOptionIsAUsageError() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int exitCode = QuickstartDemo.run(new String[] {"--bogus"}, System.out,
            new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertEquals(2, exitCode);
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains(QuickstartDemo.USAGE));
    }
}
