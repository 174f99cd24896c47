package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.testkit.Conditions;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The partition reader against a real broker: offset ranges, fetch limits, errors and ListOffsets lookups. */
public class PartitionReaderTest {

    private static LocalCluster cluster;
    private static PartitionReader reader;
    private static List<String> sent;
    private static final TopicPartition PLAIN = new TopicPartition("plain", 0);

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        cluster.createTopic("plain", 1);
        sent = new ArrayList<>();
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            for (int chunk = 0; chunk < 10; chunk++) {   // acknowledged chunk by chunk: at least ten batches
                sent.addAll(producer.produceTo("plain", 0, 50, "v" + chunk, null));
            }
        }
        reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", cluster.bootstrapServers(),
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 2048)));
    }

    @AfterClass
    public static void stop() {
        reader.close();
        cluster.close();
    }

    private static List<ConsumerRecord<String, String>> read(TopicPartition tp, long start, long end) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        reader.read(tp, start, end, new StringDeserializer(), new StringDeserializer()).forEachRemaining(records::add);
        return records;
    }

    @Test
    public void readsExactlyTheRangeAskedFor() {
        List<ConsumerRecord<String, String>> records = read(PLAIN, 123, 377);
        assertEquals(254, records.size());
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, String> record = records.get(i);
            assertEquals(123 + i, record.offset());
            assertEquals(sent.get(123 + i), record.value());
            assertEquals("k" + ((123 + i) % 50), record.key());
            assertEquals("plain", record.topic());
            assertTrue(record.timestamp() > 0);
        }
    }

    @Test
    public void readCommittedSkipsAnAbortedTransactionOfKafkasTransactionalProducer() throws Exception {
        cluster.createTopic("transacted", 1);
        java.util.Properties props = new java.util.Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("transactional.id", "reader-test");
        try (org.apache.kafka.clients.producer.KafkaProducer<String, String> producer =
                 new org.apache.kafka.clients.producer.KafkaProducer<>(props,
                     new org.apache.kafka.common.serialization.StringSerializer(),
                     new org.apache.kafka.common.serialization.StringSerializer())) {
            producer.initTransactions();
            for (String[] transaction : new String[][] {{"c0", "c1", "commit"}, {"x0", "x1", "abort"}, {"c2", "c3", "commit"}}) {
                producer.beginTransaction();
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("transacted", 0, null, transaction[0]));
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("transacted", 0, null, transaction[1]));
                producer.flush();
                if (transaction[2].equals("commit")) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
            }
        }
        TopicPartition tp = new TopicPartition("transacted", 0);
        long end = reader.latestOffset(tp);
        assertEquals("six records and three markers", 9, end);
        assertEquals(List.of("c0", "c1", "x0", "x1", "c2", "c3"), read(tp, 0, end).stream().map(r -> r.value()).toList());
        try (PartitionReader committed = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
            cluster.bootstrapServers(), ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")))) {
            List<String> values = new ArrayList<>();
            committed.read(tp, 0, end, new StringDeserializer(), new StringDeserializer())
                .forEachRemaining(r -> values.add(r.value()));
            assertEquals(List.of("c0", "c1", "c2", "c3"), values);

            // an open transaction: the read-committed latest offset is where it began, the other the log end
            props.put("transactional.id", "reader-test-open");
            try (org.apache.kafka.clients.producer.KafkaProducer<String, String> open =
                     new org.apache.kafka.clients.producer.KafkaProducer<>(props,
                         new org.apache.kafka.common.serialization.StringSerializer(),
                         new org.apache.kafka.common.serialization.StringSerializer())) {
                open.initTransactions();
                open.beginTransaction();
                open.send(new org.apache.kafka.clients.producer.ProducerRecord<>("transacted", 0, null, "o0")).get();
                assertEquals(end, committed.latestOffset(tp));
                assertEquals(end + 1, reader.latestOffset(tp));
                open.abortTransaction();
            }
        }
    }

    @Test
    public void readsACompactedPartitionAcrossItsGaps() throws Exception {
        cluster.createTopic("table", 1, Map.of("cleanup.policy", "compact", "segment.bytes", "2048"));
        List<String> written = new ArrayList<>();
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            for (int chunk = 0; chunk < 10; chunk++) {
                written.addAll(producer.produceTo("table", 0, 50, "t" + chunk, null));
            }
        }
        var log = cluster.broker(0).logManager().getLog("table", 0).orElseThrow();
        log.roll();
        assertEquals(1, cluster.broker(0).logManager().cleanCompactedLogs());
        TopicPartition table = new TopicPartition("table", 0);
        List<ConsumerRecord<String, String>> records = read(table, 0, 500);
        assertEquals("each key's last record", 50, records.size());
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, String> record = records.get(i);
            assertEquals(450 + i, record.offset());
            assertEquals(written.get(450 + i), record.value());
            assertEquals("k" + (i % 50), record.key());
        }
        assertEquals("a range inside a gap holds nothing", 0, read(table, 10, 40).size());
    }

    /** A new reader knows no leader before its first fetch: it asks at once, not after retry.backoff.ms. */
    @Test(timeout = 20_000)
    public void aNewReadersFirstFetchDoesNotWaitOutTheRetryBackoff() {
        try (PartitionReader fresh = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "retry.backoff.ms", 60_000)))) {
            Iterator<ConsumerRecord<byte[], byte[]>> records = fresh.read(PLAIN, 7, 8);
            assertTrue(records.hasNext());
            assertEquals(7, records.next().offset());
        }
    }

    /**
     * A topic met right after the reader's last metadata refresh is asked for at once as well: the backoff
     * spaces out asking again, not asking about a topic for the first time.
     */
    @Test(timeout = 20_000)
    public void aSecondTopicsFirstFetchDoesNotWaitOutTheRetryBackoff() throws Exception {
        cluster.createTopic("second", 1);
        List<String> values;
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            values = producer.produceTo("second", 0, 3, "s", null);
        }
        try (PartitionReader fresh = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "retry.backoff.ms", 60_000)))) {
            assertEquals(7, fresh.read(PLAIN, 7, 8).next().offset());
            Iterator<ConsumerRecord<String, String>> second = fresh.read(new TopicPartition("second", 0), 1, 2,
                new StringDeserializer(), new StringDeserializer());
            assertTrue(second.hasNext());
            assertEquals(values.get(1), second.next().value());
        }
    }

    /** The same holds for a new reader's first offset lookup, which also starts knowing no leader. */
    @Test(timeout = 20_000)
    public void aNewReadersFirstOffsetLookupDoesNotWaitOutTheRetryBackoff() {
        try (PartitionReader fresh = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "retry.backoff.ms", 60_000)))) {
            assertEquals(0, fresh.earliestOffset(PLAIN));
        }
    }

    /** A partition with no leader ends the fetch at request.timeout.ms, however long retry.backoff.ms is. */
    @Test(timeout = 20_000)
    public void aFetchThatFindsNoLeaderGivesUpAtTheRequestTimeoutNotAfterTheBackoff() {
        try (PartitionReader fresh = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "retry.backoff.ms", 60_000, "request.timeout.ms", 1_000)))) {
            long start = System.nanoTime();
            try {
                fresh.fetch(new TopicPartition("no-such-topic", 0), 0);
                fail("a partition nobody leads has nothing to fetch");
            } catch (TimeoutException expected) {
                assertTrue(expected.getMessage(), expected.getMessage().contains("no-such-topic-0"));
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue("gave up after " + elapsedMs + " ms", elapsedMs >= 1_000 && elapsedMs < 10_000);
        }
    }

    @Test
    public void anEmptyRangeFetchesNothing() {
        assertFalse(reader.read(PLAIN, 42, 42).hasNext());
        assertFalse(reader.readViews(PLAIN, 42, 42).advance());
    }

    @Test
    public void viewsOfARangeAreTheRecordsReadReturnsFetchAfterFetch() {
        assertViewsMatchRead(PLAIN, 123, 377); // 2 KB fetches: many responses, each but the first prefetched
        assertViewsMatchRead(PLAIN, 0, 500);
    }

    /**
     * The fetch after a response leaves when that response arrives, before the caller takes it, and
     * fetching ahead stops once {@link RangeFetches#MAX_AHEAD} responses are on their way or wait: a
     * reader that stops reading does not pull in the rest of its range. A guessed fetch that did not
     * start where the response before it ended is dropped and does not count.
     */
    @Test(timeout = 20_000)
    public void fetchesAheadOnArrivalAndStopsWhileResponsesWaitUnread() throws Exception {
        long before = fetchRequests();
        long dropped = reader.guessesSent() - reader.guessesUsed();
        RecordViews views = reader.readViews(PLAIN, 0, 500);
        assertTrue(views.advance());   // the first response taken; no other advance() for now
        long expected = before + 1 + RangeFetches.MAX_AHEAD;
        Conditions.waitUntil(() -> fetchRequests() >= expected, "fetches ahead of a reader that does not read");
        Thread.sleep(300);
        long droppedNow = reader.guessesSent() - reader.guessesUsed() - dropped;
        assertEquals("no further fetch while responses wait", expected + droppedNow, fetchRequests());
        long offsets = 1;
        while (views.advance()) {
            assertEquals(offsets++, views.current().offset());
        }
        assertEquals(500, offsets);
    }

    /** Fetch requests the broker received, from its JMX request metrics. */
    private static long fetchRequests() {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        long total = 0;
        try {
            for (ObjectName name : jmx.queryNames(new ObjectName("io.millrace:type=request-metrics,request=Fetch,*"), null)) {
                total += (Long) jmx.getAttribute(name, "request-total");
            }
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
        return total;
    }

    private static void assertViewsMatchRead(TopicPartition tp, long start, long end) {
        List<ConsumerRecord<String, String>> records = read(tp, start, end);
        RecordViews views = reader.readViews(tp, start, end);
        for (ConsumerRecord<String, String> record : records) {
            assertTrue("a view for offset " + record.offset(), views.advance());
            RecordView view = views.current();
            assertEquals(record.offset(), view.offset());
            assertEquals(record.timestamp(), view.timestamp());
            assertEquals(record.key(), StandardCharsets.UTF_8.decode(view.key()).toString());
            byte[] value = new byte[view.valueLength()];
            view.buffer().get(view.valuePosition(), value);
            assertEquals(record.value(), new String(value, StandardCharsets.UTF_8));
        }
        assertFalse(views.advance());
    }

    @Test
    public void aFetchStaysWithinMaxPartitionFetchBytesAndSaysWhereToGoOn() {
        FetchedBatches fetched = reader.fetch(PLAIN, 0);
        int bytes = fetched.batches().stream().mapToInt(RecordBatch::sizeInBytes).sum();
        // whole batches up to the budget; a first batch larger than the budget comes alone, so a reader always moves on
        assertTrue("at most 2048 bytes or one batch, got " + bytes + " in " + fetched.batches().size(),
            bytes > 0 && (bytes <= 2048 || fetched.batches().size() == 1));
        assertEquals(500, fetched.highWatermark());
        long next = fetched.nextOffset();
        assertTrue(next > 0 && next < 500);
        assertEquals(next, fetched.batches().get(fetched.batches().size() - 1).nextOffset());
        assertEquals(next, reader.fetch(PLAIN, next).records(Long.MAX_VALUE, new StringDeserializer(),
            new StringDeserializer()).get(0).offset());
    }

    @Test
    public void anOffsetBeyondTheLogIsReportedNotReset() {
        try {
            reader.fetch(PLAIN, 10_000);
            fail("expected OffsetOutOfRangeException");
        } catch (OffsetOutOfRangeException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("10000") && e.getMessage().contains("[0, 500)"));
        }
        Iterator<ConsumerRecord<byte[], byte[]>> iterator = reader.read(PLAIN, 600, 700);
        try {
            iterator.hasNext();
            fail("expected OffsetOutOfRangeException");
        } catch (OffsetOutOfRangeException expected) {
            // the range iterator reports it too
        }
    }

    @Test
    public void earliestAndLatestOffsets() {
        assertEquals(0, reader.earliestOffset(PLAIN));
        assertEquals(500, reader.latestOffset(PLAIN));
    }

    @Test
    public void offsetsForTimeFindTheFirstRecordAtOrAfterIt() throws Exception {
        cluster.createTopic("timed", 1);
        TopicPartition tp = new TopicPartition("timed", 0);
        try (TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            producer.produceTo("timed", 0, 10, "early", 1_000_000L);
            producer.produceTo("timed", 0, 10, "late", 2_000_000L);
        }
        assertEquals(0, reader.offsetForTime(tp, 0).getAsLong());
        assertEquals(10, reader.offsetForTime(tp, 1_500_000L).getAsLong());
        assertEquals(10, reader.offsetForTime(tp, 2_000_000L).getAsLong());
        assertTrue(reader.offsetForTime(tp, 3_000_000L).isEmpty());
    }

    @Test
    public void compressedBatchesAreReadFromTheOffsetAskedForOn() throws Exception {
        for (String codec : List.of("gzip", "lz4", "snappy", "zstd")) {
            String topic = "compressed-" + codec;
            cluster.createTopic(topic, 1);
            List<String> values;
            try (TestProducer producer = new TestProducer(cluster.bootstrapServers(), codec)) {
                values = producer.produce(topic, 1, 200, codec);
            }
            TopicPartition tp = new TopicPartition(topic, 0);
            FetchedBatches first = reader.fetch(tp, 0);
            assertEquals(CompressionType.valueOf(codec.toUpperCase()), first.batches().get(0).compressionType());
            // a start inside a compressed batch: the records before it are skipped, not returned
            List<ConsumerRecord<String, String>> records = read(tp, 77, 200);
            assertEquals(codec, values.subList(77, 200), records.stream().map(ConsumerRecord::value).toList());
            assertViewsMatchRead(tp, 77, 200);
        }
    }
}
