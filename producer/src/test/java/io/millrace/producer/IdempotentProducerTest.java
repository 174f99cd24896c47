package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.PartitionContents.Batch;
import io.millrace.producer.PartitionContents.Stored;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The idempotent producer against a real broker: its batches carry its producer id and each
 * partition's sequence from 0, and a batch sent again because its answer was lost is stored once,
 * in its place, however many are in flight.
 */
public class IdempotentProducerTest {

    private static final AtomicInteger TOPICS = new AtomicInteger();
    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start();
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String newTopic(int partitions) throws InterruptedException {
        String topic = "idempotent-" + TOPICS.incrementAndGet();
        cluster.createTopic(topic, partitions);
        return topic;
    }

    private static MillraceProducer<String, String> producer(String bootstrap, Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.put("linger.ms", 0);
        props.put("retry.backoff.ms", 20);
        props.put("reconnect.backoff.ms", 20);
        props.putAll(overrides);
        return new MillraceProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static List<String> values(String topic, int partition) throws Exception {
        return PartitionContents.read(cluster.bootstrapServers(), topic, partition).stream().map(Stored::value).toList();
    }

    /** Each batch's base sequence follows the records of the batches before it, from 0, under one producer id and epoch 0. */
    private static long assertNumberedFromZero(List<Batch> batches) {
        long producerId = batches.get(0).producerId();
        int sequence = 0;
        for (Batch batch : batches) {
            assertEquals(batch.toString(), producerId, batch.producerId());
            assertEquals(batch.toString(), 0, batch.producerEpoch());
            assertEquals(batch.toString(), sequence, batch.baseSequence());
            sequence += batch.recordCount();
        }
        assertTrue("a producer id from the broker: " + producerId, producerId >= 0);
        return producerId;
    }

    @Test
    public void batchesCarryTheProducersIdAndEachPartitionsSequenceFromZero() throws Exception {
        String topic = newTopic(2);
        try (MillraceProducer<String, String> producer = producer(cluster.bootstrapServers(), Map.of("batch.size", 200))) {
            for (int i = 0; i < 60; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, "k" + i, "value-" + i));
            }
        }
        List<Batch> first = PartitionContents.batches(cluster.bootstrapServers(), topic, 0);
        List<Batch> second = PartitionContents.batches(cluster.bootstrapServers(), topic, 1);
        assertTrue("several batches per partition: " + first, first.size() > 3);
        assertEquals(assertNumberedFromZero(first), assertNumberedFromZero(second));

        String again = newTopic(1);
        try (MillraceProducer<String, String> producer = producer(cluster.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>(again, 0, "k", "v")).get();
        }
        assertNotEquals("every producer gets its own id", first.get(0).producerId(),
            assertNumberedFromZero(PartitionContents.batches(cluster.bootstrapServers(), again, 0)));
    }

    @Test
    public void withoutIdempotenceBatchesCarryNoProducerId() throws Exception {
        String topic = newTopic(1);
        try (MillraceProducer<String, String> producer = producer(cluster.bootstrapServers(),
            Map.of("enable.idempotence", false))) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "v")).get();
        }
        Batch batch = PartitionContents.batches(cluster.bootstrapServers(), topic, 0).get(0);
        assertEquals(RecordBatch.NO_PRODUCER_ID, batch.producerId());
        assertEquals(RecordBatch.NO_SEQUENCE, batch.baseSequence());
    }

    @Test
    public void aCompressedBatchHandedInIsNumberedAsThisProducersOwn() throws Exception {
        String topic = newTopic(1);
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.LZ4, 500L, 1024)
            .producerState(77L, (short) 2, 1_000, false);
        for (int i = 0; i < 4; i++) {
            builder.append(1_700_000_000_000L + i, ("k" + i).getBytes(), ("copied-" + i).getBytes());
        }
        try (MillraceProducer<String, String> producer = producer(cluster.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "own")).get();
            producer.sendRecordBatch(topic, 0, RecordBatch.wrap(builder.build()), null).get();
            producer.send(new ProducerRecord<>(topic, 0, "k", "own-again")).get();
        }
        List<Batch> batches = PartitionContents.batches(cluster.bootstrapServers(), topic, 0);
        assertEquals(List.of(1, 4, 1), batches.stream().map(Batch::recordCount).toList());
        assertNumberedFromZero(batches);
        assertEquals(List.of("own", "copied-0", "copied-1", "copied-2", "copied-3", "own-again"), values(topic, 0));
    }

    @Test
    public void withoutIdempotenceABatchWhoseAnswerWasLostIsStoredTwice() throws Exception {
        String topic = newTopic(1);
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort());
             MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(),
                 Map.of("enable.idempotence", false))) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "warm-up")).get(30, TimeUnit.SECONDS);
            proxy.loseNextProduceAnswers(1);
            producer.send(new ProducerRecord<>(topic, 0, "k", "twice")).get(30, TimeUnit.SECONDS);
            assertEquals(1, proxy.produceAnswersLost());
        }
        assertEquals("what the idempotent producer is for", List.of("warm-up", "twice", "twice"), values(topic, 0));
    }

    @Test
    public void aBatchWhoseAnswerWasLostIsStoredOnceWithItsFirstOffset() throws Exception {
        String topic = newTopic(1);
        RecordMetadata metadata;
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort());
             MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "warm-up")).get(30, TimeUnit.SECONDS);
            proxy.loseNextProduceAnswers(1);
            metadata = producer.send(new ProducerRecord<>(topic, 0, "k", "once")).get(30, TimeUnit.SECONDS);
            assertEquals(1, proxy.produceAnswersLost());
            assertEquals("the warm-up, the send whose answer was lost, the retry", 3, proxy.produceRequests());
        }
        assertEquals(List.of("warm-up", "once"), values(topic, 0));
        assertEquals(1L, metadata.offset());
        assertNumberedFromZero(PartitionContents.batches(cluster.bootstrapServers(), topic, 0));
    }

    @Test
    public void orderWithinEachPartitionHoldsWhileAnswersAreLostWithFiveRequestsInFlight() throws Exception {
        String topic = newTopic(2);
        int count = 3_000;
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort());
             MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(),
                 Map.of("max.in.flight.requests.per.connection", 5, "batch.size", 300, "linger.ms", 1))) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "warm-up")).get(30, TimeUnit.SECONDS);
            proxy.loseEveryProduceAnswer(7);
            for (int i = 0; i < count; i++) {
                futures.add(producer.send(new ProducerRecord<>(topic, i % 2, "k", String.valueOf(i))));
            }
            producer.flush();
            assertTrue("answers lost: " + proxy.produceAnswersLost(), proxy.produceAnswersLost() >= 10);
        }
        for (Future<RecordMetadata> future : futures) {
            future.get(30, TimeUnit.SECONDS);
        }
        for (int partition = 0; partition < 2; partition++) {
            List<String> expected = new ArrayList<>(partition == 0 ? List.of("warm-up") : List.of());
            for (int i = partition; i < count; i += 2) {
                expected.add(String.valueOf(i));
            }
            assertOnceInOrder("partition " + partition, expected, values(topic, partition));
        }
    }

    private static Throwable failure(Future<RecordMetadata> future) throws Exception {
        try {
            future.get(30, TimeUnit.SECONDS);
            fail("the send succeeded");
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    public void anInvalidEpochAnswerFailsTheBatchNamingTheProducerAndLaterBatchesGoUnderANewEpoch() throws Exception {
        String topic = newTopic(1);
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort());
             MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "warm-up")).get(30, TimeUnit.SECONDS);
            proxy.answerNextProduceWith(Errors.INVALID_PRODUCER_EPOCH.code());
            Throwable error = failure(producer.send(new ProducerRecord<>(topic, 0, "k", "refused")));
            assertTrue(error.toString(), error instanceof InvalidProducerEpochException);
            assertTrue(error.getMessage(), error.getMessage().contains("INVALID_PRODUCER_EPOCH"));
            assertTrue(error.getMessage(), error.getMessage().contains("newer epoch of producer id"));
            producer.send(new ProducerRecord<>(topic, 0, "k", "after")).get(30, TimeUnit.SECONDS);
        }
        List<Batch> batches = PartitionContents.batches(cluster.bootstrapServers(), topic, 0);
        // the broker did store the batch whose answer the proxy changed; the one after starts the next epoch at 0
        Batch after = batches.get(2);
        assertEquals(1, after.producerEpoch());
        assertEquals(0, after.baseSequence());
        assertEquals(batches.get(0).producerId(), after.producerId());
    }

    @Test
    public void aFencedAnswerStopsTheProducer() throws Exception {
        String topic = newTopic(1);
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort());
             MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "warm-up")).get(30, TimeUnit.SECONDS);
            proxy.answerNextProduceWith((short) 90);
            Throwable fenced = failure(producer.send(new ProducerRecord<>(topic, 0, "k", "fenced")));
            assertTrue(fenced.getMessage(), fenced.getMessage().contains("PRODUCER_FENCED"));
            Throwable later = failure(producer.send(new ProducerRecord<>(topic, 0, "k", "later")));
            assertTrue(later.getMessage(), later.getMessage().contains("PRODUCER_FENCED"));
        }
        assertEquals(List.of("warm-up", "fenced"), values(topic, 0));
    }

    @Test
    public void aDuplicateSequenceAnswerCountsAsStoredWithAnUnknownOffset() throws Exception {
        String topic = newTopic(1);
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort());
             MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(), Map.of())) {
            producer.send(new ProducerRecord<>(topic, 0, "k", "warm-up")).get(30, TimeUnit.SECONDS);
            proxy.answerNextProduceWith((short) 46);
            RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, 0, "k", "old")).get(30, TimeUnit.SECONDS);
            assertEquals(RecordMetadata.UNKNOWN_OFFSET, metadata.offset());
            assertEquals(2L, producer.send(new ProducerRecord<>(topic, 0, "k", "next")).get(30, TimeUnit.SECONDS).offset());
        }
        assertNumberedFromZero(PartitionContents.batches(cluster.bootstrapServers(), topic, 0));
    }

    @Test
    public void aBrokerThatCannotGiveAProducerIdYetIsAskedAgainAndARefusalFailsTheRecords() throws Exception {
        String topic = newTopic(1);
        try (AnswerLosingProxy proxy = new AnswerLosingProxy(cluster.brokerPort())) {
            proxy.answerInitProducerIdWith(Errors.COORDINATOR_LOAD_IN_PROGRESS.code(), Errors.NOT_COORDINATOR.code());
            try (MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(), Map.of())) {
                assertEquals(0L, producer.send(new ProducerRecord<>(topic, 0, "k", "after two tries")).get(30,
                    TimeUnit.SECONDS).offset());
            }
            proxy.answerInitProducerIdWith(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
            try (MillraceProducer<String, String> producer = producer(proxy.bootstrapServers(), Map.of())) {
                Throwable refused = failure(producer.send(new ProducerRecord<>(topic, 0, "k", "refused")));
                assertTrue(refused.getMessage(), refused.getMessage().contains("refused the idempotent producer a producer id"));
                assertTrue(refused.getMessage(), refused.getMessage().contains("CLUSTER_AUTHORIZATION_FAILED"));
            }
        }
        assertEquals(List.of("after two tries"), values(topic, 0));
    }

    /** Like assertEquals on the lists, but saying where they part rather than printing thousands of values. */
    private static void assertOnceInOrder(String what, List<String> expected, List<String> stored) {
        for (int i = 0; i < Math.min(expected.size(), stored.size()); i++) {
            if (!expected.get(i).equals(stored.get(i))) {
                int end = Math.min(stored.size(), i + 10);
                throw new AssertionError(what + ": at index " + i + " expected " + expected.get(i) + ", stored "
                    + stored.subList(i, end) + " (" + stored.size() + " stored, " + expected.size() + " sent)");
            }
        }
        assertEquals(what + ": records stored", expected.size(), stored.size());
    }
}
