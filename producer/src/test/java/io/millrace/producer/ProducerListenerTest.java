package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.serialization.StringSerializer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A {@link ProducerListener} hears of every record sent one by one, a batch at a time, with the time and
 * sizes it was stored with, before a flush returns; records that never joined a batch as rejections;
 * records handed in as whole batches not at all.
 */
public class ProducerListenerTest {

    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start();
        cluster.createTopic("heard", 2);
        cluster.createTopic("mixed", 1);
        cluster.createTopic("tiny", 1, Map.of("max.message.bytes", "200"));
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static MillraceProducer<String, String> producer(Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>(Map.of("bootstrap.servers", cluster.bootstrapServers(), "linger.ms", 20));
        props.putAll(overrides);
        return new MillraceProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    @Test
    public void everyRecordSentOneByOneIsHeardWithItsTimeAndSizesBeforeFlushReturns() throws Exception {
        Heard heard = new Heard();
        try (MillraceProducer<String, String> producer = producer(Map.of())) {
            producer.addListener(heard);
            for (int i = 0; i < 300; i++) {
                String key = i % 3 == 0 ? null : "k" + i;
                producer.send(new ProducerRecord<>("heard", i % 2, 1_700_000_000_000L + i, key, "v".repeat(i % 17), List.of()),
                    i % 5 == 0 ? (metadata, e) -> { } : null);
            }
            producer.flush();
            assertEquals("heard before flush returned", 300, heard.records());
        }
        assertTrue("several records to a batch: " + heard.batches, heard.batches < 300);
        for (int i = 0; i < 300; i++) {
            Heard.Record record = heard.byTimestamp.get(1_700_000_000_000L + i);
            assertEquals(i % 3 == 0 ? -1 : ("k" + i).length(), record.keySize());
            assertEquals(i % 17, record.valueSize());
            assertEquals(i % 2, record.partition());
        }
        assertEquals(0, heard.failed);
        assertEquals("the batch totals are those of its records", List.of(), heard.totalsDisagree);
    }

    @Test
    public void recordsHandedInAsWholeBatchesAreLeftOutOfTheBatchTheyJoin() throws Exception {
        Heard heard = new Heard();
        try (MillraceProducer<String, String> producer = producer(Map.of("linger.ms", 200))) {
            producer.addListener(heard);
            producer.send(new ProducerRecord<>("mixed", 0, 1L, "a", "one", List.of()));
            RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
            for (int i = 0; i < 4; i++) {
                builder.append(100L + i, ("k" + i).getBytes(), ("copied" + i).getBytes());
            }
            producer.sendRecordBatch("mixed", 0, RecordBatch.wrap(builder.build()), null);
            producer.send(new ProducerRecord<>("mixed", 0, 2L, "b", "two", List.of()));
            producer.flush();
        }
        assertEquals(2, heard.records());
        assertEquals(List.of(1L, 2L), new ArrayList<>(heard.byTimestamp.keySet()));
        assertEquals("totals leave the records of whole batches out", List.of(), heard.totalsDisagree);
    }

    @Test
    public void aRefusedBatchIsHeardAsFailedAndARecordThatJoinedNoBatchAsARejection() throws Exception {
        Heard heard = new Heard();
        try (MillraceProducer<String, String> producer = producer(Map.of("max.block.ms", 300, "linger.ms", 0))) {
            producer.addListener(heard);
            try {
                producer.send(new ProducerRecord<>("tiny", 0, 5L, null, "x".repeat(1_000), List.of())).get();
            } catch (ExecutionException expected) {
                // too large for the topic
            }
            producer.send(new ProducerRecord<>("no-such-topic", 0, 6L, null, "lost", List.of()));
            producer.flush();
        }
        assertEquals(1, heard.failed);
        assertEquals(0, heard.records());
        assertEquals(List.of("no-such-topic@6"), heard.rejected);
    }

    /** Everything a listener was told, on the producer's network thread. */
    private static final class Heard implements ProducerListener {
        record Record(int partition, int keySize, int valueSize) {
        }

        final Map<Long, Record> byTimestamp = new java.util.LinkedHashMap<>();
        final List<String> rejected = new ArrayList<>();
        final List<String> totalsDisagree = new ArrayList<>();
        int batches;
        int failed;

        @Override
        public synchronized void onCompletion(CompletedBatch batch) {
            batches++;
            if (batch.error() != null) {
                failed += batch.sentRecords();
                return;
            }
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            long bytes = 0;
            for (int i = 0; i < batch.sentRecords(); i++) {
                byTimestamp.put(batch.timestamp(i), new Record(batch.topicPartition().partition(), batch.serializedKeySize(i),
                    batch.serializedValueSize(i)));
                min = Math.min(min, batch.timestamp(i));
                max = Math.max(max, batch.timestamp(i));
                bytes += Math.max(0, batch.serializedKeySize(i)) + Math.max(0, batch.serializedValueSize(i));
            }
            if (batch.sentRecords() > 0 && (min != batch.minTimestamp() || max != batch.maxTimestamp()
                    || bytes != batch.sentBytes())) {
                totalsDisagree.add(batch.topicPartition() + ": " + batch.minTimestamp() + ".." + batch.maxTimestamp() + ", "
                    + batch.sentBytes() + " B, records say " + min + ".." + max + ", " + bytes + " B");
            }
        }

        @Override
        public synchronized void onRejection(String topic, long timestamp, Exception error) {
            rejected.add(topic + "@" + timestamp);
        }

        synchronized int records() {
            return byTimestamp.size();
        }
    }
}
