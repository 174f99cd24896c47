package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringDeserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * At least once, and never a commit of what the application has not processed: a record handed out
 * counts as processed only when the application comes back for more, whatever commits it (close,
 * a rebalance, the auto-commit schedule, an explicit commit).
 */
public class DeliveryGuaranteeTest {

    private static LocalCluster cluster;
    private static TestProducer producer;
    private GroupTestSupport support;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        producer = new TestProducer(cluster.bootstrapServers());
    }

    @AfterClass
    public static void stopCluster() {
        producer.close();
        cluster.close();
    }

    @Before
    public void setUp() {
        support = new GroupTestSupport(cluster);
    }

    @After
    public void tearDown() {
        support.close();
    }

    private Map<String, Object> settings(String group, boolean autoCommit) {
        Map<String, Object> props = support.settings(group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, autoCommit);
        props.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, 100);
        return props;
    }

    private long committed(String group, String topic) {
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(settings(group, false)))) {
            return offsets.describe(group).stream().filter(row -> row.topic().equals(topic))
                .mapToLong(GroupOffsets.PartitionLag::committedOffset).findFirst().orElse(-1);
        }
    }

    /**
     * The listener runs before the offsets of partitions given up are committed: work it finishes there
     * (a producer's flush) is done before the commit, and a false answer gives them up uncommitted.
     */
    @Test
    public void theRebalanceListenerRunsBeforeTheReleaseCommitAndCanWithholdIt() throws Exception {
        cluster.createTopic("listened", 1);
        List<String> sent = producer.produce("listened", 1, 10, "l");
        List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
        GroupConsumer<String, String> consumer = support.consumer(settings("g-listened", false));
        consumer.setRebalanceListener(new RebalanceListener() {
            @Override
            public boolean beforeCommit(Set<TopicPartition> partitions) {
                calls.add("before " + partitions + " committed " + committed("g-listened", "listened"));
                return true;
            }

            @Override
            public void afterRelease(Set<TopicPartition> partitions) {
                calls.add("after " + partitions);
            }
        });
        Iterator<ConsumerRecord<String, String>> stream =
            consumer.createMessageStreams(Map.of("listened", 1)).get("listened").get(0).iterator();
        for (int i = 0; i < 4; i++) {
            assertEquals(sent.get(i), stream.next().value());
        }
        consumer.close();
        assertEquals(List.of("before [listened-0] committed -1", "after [listened-0]"), calls);
        assertEquals(3, committed("g-listened", "listened"));

        GroupConsumer<String, String> withholding = support.consumer(settings("g-listened", false));
        withholding.setRebalanceListener(partitions -> false);
        Iterator<ConsumerRecord<String, String>> again =
            withholding.createMessageStreams(Map.of("listened", 1)).get("listened").get(0).iterator();
        for (int i = 3; i < 8; i++) {
            assertEquals(sent.get(i), again.next().value());
        }
        withholding.close();
        assertEquals("a withheld commit leaves the last one", 3, committed("g-listened", "listened"));
    }

    @Test
    public void closeCommitsUpToTheRecordTheApplicationIsStillProcessing() throws Exception {
        cluster.createTopic("in-hand", 1);
        List<String> sent = producer.produce("in-hand", 1, 10, "h");
        GroupConsumer<String, String> consumer = support.consumer(settings("g-in-hand", false));
        Iterator<ConsumerRecord<String, String>> stream =
            consumer.createMessageStreams(Map.of("in-hand", 1)).get("in-hand").get(0).iterator();
        for (int i = 0; i < 3; i++) {
            assertEquals(sent.get(i), stream.next().value());
        }
        consumer.close();   // the application fails while processing the third record
        assertEquals("committed past a record still being processed", 2, committed("g-in-hand", "in-hand"));

        GroupConsumer<String, String> next = support.consumer(settings("g-in-hand", false));
        Iterator<ConsumerRecord<String, String>> again =
            next.createMessageStreams(Map.of("in-hand", 1)).get("in-hand").get(0).iterator();
        assertEquals("the unfinished record is delivered again", sent.get(2), again.next().value());
    }

    @Test
    public void autoCommitCoversOnlyRecordsTheApplicationCameBackFrom() throws Exception {
        cluster.createTopic("slow", 1);
        List<String> sent = producer.produce("slow", 1, 5, "s");
        GroupConsumer<String, String> consumer = support.consumer(settings("g-slow", true));
        Iterator<ConsumerRecord<String, String>> stream =
            consumer.createMessageStreams(Map.of("slow", 1)).get("slow").get(0).iterator();
        assertEquals(sent.get(0), stream.next().value());
        assertEquals(sent.get(1), stream.next().value());
        Thread.sleep(600);   // several auto-commit intervals while the second record is processed
        assertEquals(1, committed("g-slow", "slow"));
        assertTrue(stream.hasNext());   // back for more: the second record is done
        io.millrace.testkit.Conditions.waitUntil(() -> committed("g-slow", "slow") == 2, 10_000,
            "the auto-commit of the processed record");
    }

    @Test
    public void anExceptionInAPolledBatchCommitsNothingOfThatBatch() throws Exception {
        cluster.createTopic("batches", 1);
        List<String> sent = producer.produce("batches", 1, 20, "b");
        List<String> firstBatch = new ArrayList<>();
        try (PollingConsumer<String, String> consumer = new PollingConsumer<>(
                new ConsumerConfig(settings("g-batches", false)), new StringDeserializer(), new StringDeserializer(), 8)) {
            consumer.subscribe(java.util.Set.of("batches"));
            firstBatch.addAll(values(pollSome(consumer)));
            values(pollSome(consumer));   // the first batch is processed; the second fails
            throw new IllegalStateException("processing failed");
        } catch (IllegalStateException expected) {
            // the consumer is closed by try-with-resources
        }
        assertEquals(firstBatch.size(), committed("g-batches", "batches"));
        assertEquals(sent.subList(0, firstBatch.size()), firstBatch);

        try (PollingConsumer<String, String> consumer = new PollingConsumer<>(
                new ConsumerConfig(settings("g-batches", false)), new StringDeserializer(), new StringDeserializer(), 8)) {
            consumer.subscribe(java.util.Set.of("batches"));
            List<String> redelivered = values(pollSome(consumer));
            assertEquals(sent.get(firstBatch.size()), redelivered.get(0));
            consumer.commit();
            assertEquals(firstBatch.size() + redelivered.size(), committed("g-batches", "batches"));
        }
    }

    /**
     * The batch form of poll, for the mirror: chunks start at the first offset not yet processed, even
     * inside a batch, and what one call returned is committed once the next call (or commit) says so.
     */
    @Test
    public void pollBatchesHandsOutWholeBatchesFromTheCommittedOffsetAndCommitsThemLikePoll() throws Exception {
        cluster.createTopic("whole-batches", 1);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sent.addAll(producer.produceTo("whole-batches", 0, 10, "w" + i + "-", null));
        }
        try (PollingConsumer<String, String> consumer = new PollingConsumer<>(
                new ConsumerConfig(settings("g-whole", false)), new StringDeserializer(), new StringDeserializer(), 5)) {
            consumer.subscribe(Set.of("whole-batches"));
            List<String> first = values(pollSome(consumer));
            assertEquals(sent.subList(0, first.size()), first);
            consumer.commit();
        }
        long processed = committed("g-whole", "whole-batches");
        assertTrue("inside the first batch: " + processed, processed > 0 && processed <= 5);

        List<String> copied = new ArrayList<>();
        try (PollingConsumer<String, String> consumer = new PollingConsumer<>(
                new ConsumerConfig(settings("g-whole", false)), new StringDeserializer(), new StringDeserializer(), 5)) {
            consumer.subscribe(Set.of("whole-batches"));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            long expectedFrom = processed;
            while (copied.size() < 30 - processed && System.nanoTime() < deadline) {
                for (FetchedBatches chunk : consumer.pollBatches(Duration.ofMillis(200))) {
                    assertEquals(expectedFrom, chunk.fetchOffset());
                    assertTrue("a chunk's first batch holds its first offset",
                        chunk.batches().get(0).baseOffset() <= chunk.fetchOffset()
                            && chunk.batches().get(0).lastOffset() >= chunk.fetchOffset());
                    chunk.iterator(chunk.fetchOffset(), Long.MAX_VALUE, new StringDeserializer(), new StringDeserializer())
                        .forEachRemaining(record -> copied.add(record.value()));
                    expectedFrom = chunk.nextOffset();
                }
            }
            assertEquals(sent.subList((int) processed, 30), copied);
            assertEquals("nothing is processed until the next call or a commit says so", processed,
                committed("g-whole", "whole-batches"));
            consumer.commit();
            assertEquals(30, committed("g-whole", "whole-batches"));
        }
    }

    private static List<ConsumerRecord<String, String>> pollSome(PollingConsumer<String, String> consumer)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            List<ConsumerRecord<String, String>> records = consumer.poll(Duration.ofMillis(200));
            if (!records.isEmpty()) {
                return records;
            }
        }
        throw new AssertionError("no records within 20 s");
    }

    private static List<String> values(List<ConsumerRecord<String, String>> records) {
        List<String> values = new ArrayList<>();
        records.forEach(record -> values.add(record.value()));
        return values;
    }
}
