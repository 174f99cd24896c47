package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A range's reader sends the fetch after the one on its way from where that one should end, when
 * responses keep covering the same number of offsets. The guess is read only when it starts exactly
 * where the response before it ended: the caller gets every record once, in order, whether the
 * guesses hold, fail where the batches change size, or are never made.
 */
public class GuessedFetchesTest {

    private static final TopicPartition REGULAR = new TopicPartition("regular", 0);
    private static final TopicPartition SHIFTING = new TopicPartition("shifting", 0);
    private static final TopicPartition LARGE = new TopicPartition("large", 0);
    private static LocalCluster cluster;
    private static PartitionReader reader;
    private static List<String> regular;
    private static List<String> shifting;
    private static List<String> large;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        cluster.createTopic("regular", 1);
        cluster.createTopic("shifting", 1);
        regular = new ArrayList<>();
        shifting = new ArrayList<>();
        large = new ArrayList<>();
        cluster.createTopic("large", 1);
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            // each call one batch: 60 batches of 10 records alike
            for (int batch = 0; batch < 60; batch++) {
                regular.addAll(producer.produceTo("regular", 0, 10, "r", null));
            }
            // 20 batches of 10, 20 of 7 and 20 of 10 again: a guess made over one size fails at the change
            for (int batch = 0; batch < 60; batch++) {
                shifting.addAll(producer.produceTo("shifting", 0, batch / 20 == 1 ? 7 : 10, "s", null));
            }
            // 240 batches of 10 records of about 1 KB: 2.4 MB in responses above GUESS_MAX_BYTES
            for (int batch = 0; batch < 240; batch++) {
                large.addAll(producer.produceTo("large", 0, 10, "l".repeat(1000), null));
            }
        }
        // about three batches a response; a fetch past the records would wait half a minute
        reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", cluster.bootstrapServers(),
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 30_000, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1000)));
    }

    @AfterClass
    public static void stop() {
        reader.close();
        cluster.close();
    }

    @Test(timeout = 20_000)
    public void guessesOverBatchesOfOneSizeHoldAndEveryRecordComesOnce() {
        long sent = reader.guessesSent();
        long used = reader.guessesUsed();
        readViewsAndCheck(REGULAR, regular, 0, regular.size());
        assertTrue("fetches were guessed and read", reader.guessesUsed() > used);
        assertTrue(reader.guessesSent() - sent >= reader.guessesUsed() - used);
    }

    @Test(timeout = 20_000)
    public void responsesAboveTheGuessLimitAreNotGuessedAfter() {
        int maxBytes = RangeFetches.GUESS_MAX_BYTES + 40 * 1024;
        try (PartitionReader wide = new PartitionReader(new ConsumerConfig(Map.of(
                "bootstrap.servers", cluster.bootstrapServers(), ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, maxBytes)))) {
            RecordViews views = wide.readViews(LARGE, 0, large.size());
            for (int offset = 0; offset < large.size(); offset++) {
                // a reader that keeps up, so that fetching ahead is never held back by responses waiting
                assertTrue("a view for offset " + offset, views.advance());
                assertEquals(offset, views.current().offset());
                assertEquals(large.get(offset).length(), views.current().valueLength());
            }
            assertFalse(views.advance());
            assertEquals("no guess after a response above the limit", 0, wide.guessesSent());
        }
    }

    @Test(timeout = 20_000)
    public void aGuessThatMissesIsDroppedAndTheRecordsStayInOrder() {
        long dropped = reader.guessesSent() - reader.guessesUsed();
        readViewsAndCheck(SHIFTING, shifting, 0, shifting.size());
        readViewsAndCheck(SHIFTING, shifting, 13, 517);
        Iterator<ConsumerRecord<byte[], byte[]>> copies = reader.read(SHIFTING, 5, shifting.size());
        for (int offset = 5; offset < shifting.size(); offset++) {
            ConsumerRecord<byte[], byte[]> record = copies.next();
            assertEquals(offset, record.offset());
            assertEquals(shifting.get(offset), new String(record.value(), StandardCharsets.UTF_8));
        }
        assertFalse(copies.hasNext());
        long droppedNow = reader.guessesSent() - reader.guessesUsed();
        assertTrue("a guess failed where the batches changed size", droppedNow > dropped);
    }

    /**
     * No guess goes past the range's end: one there would wait for records for fetch.max.wait.ms, and
     * the answers behind it on the connection with it.
     */
    @Test(timeout = 20_000)
    public void noGuessWaitsForRecordsNotYetWritten() {
        for (int round = 0; round < 5; round++) {
            readViewsAndCheck(REGULAR, regular, 0, regular.size());
            readViewsAndCheck(REGULAR, regular, 100, 400);
        }
    }

    private static void readViewsAndCheck(TopicPartition tp, List<String> values, int start, int end) {
        ViewChecks.readAndCheck(reader, tp, values, start, end);
    }
}
