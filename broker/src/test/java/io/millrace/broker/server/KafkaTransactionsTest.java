package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AddPartitionsToTxnRequest;
import io.millrace.common.protocol.message.AddPartitionsToTxnResponse;
import io.millrace.common.protocol.message.DescribeTransactionsRequest;
import io.millrace.common.protocol.message.DescribeTransactionsResponse;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.InitProducerIdResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's transactional producer against two Millrace brokers: committed transactions are read
 * once by a read-committed consumer and aborted ones never, a second instance of a transactional
 * id fences the first and aborts its open transaction, a transaction open past its timeout is
 * aborted, and Kafka's AdminClient describes and lists the transactions.
 */
public class KafkaTransactionsTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of(
        "transaction.state.log.num.partitions", 3,
        "transaction.abort.timed.out.transaction.cleanup.interval.ms", 200));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static KafkaProducer<byte[], byte[]> producer(String transactionalId, int timeoutMs) {
        Properties props = CLUSTER.clientProps();
        props.put("transactional.id", transactionalId);
        props.put("transaction.timeout.ms", timeoutMs);
        props.put("max.block.ms", 30_000);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            producer.send(new ProducerRecord<>(topic, utf8(prefix + "-" + i), utf8(prefix + "-" + i)));
        }
        producer.flush();
    }

    /** Every value of {@code topic} a consumer of this isolation level reads, until the end offsets it sees at the start. */
    private static List<String> readAll(String topic, String isolation) {
        Properties props = CLUSTER.clientProps();
        props.put("isolation.level", isolation);
        props.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertTrue("read " + values.size() + " records, positions short of " + ends, System.nanoTime() < deadline);
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
            return values;
        }
    }

    private static Set<String> values(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).collect(Collectors.toSet());
    }

    @Test
    public void committedTransactionsAreReadOnceAndAbortedOnesNever() throws Exception {
        String topic = "payments";
        CLUSTER.createTopic(topic, 4, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = producer("payments-writer", 60_000)) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, "first", 100);
            producer.commitTransaction();
            producer.beginTransaction();
            send(producer, topic, "aborted", 50);
            producer.abortTransaction();
            producer.beginTransaction();
            send(producer, topic, "second", 30);
            producer.commitTransaction();
        }
        List<String> committed = readAll(topic, "read_committed");
        Set<String> expected = new HashSet<>(values("first", 100));
        expected.addAll(values("second", 30));
        assertEquals("each committed record once", 130, committed.size());
        assertEquals(expected, new HashSet<>(committed));
        List<String> uncommitted = readAll(topic, "read_uncommitted");
        assertEquals("a read-uncommitted consumer sees the aborted records too", 180, uncommitted.size());
    }

    @Test
    public void aNewInstanceFencesTheOldOneAndAbortsItsOpenTransaction() throws Exception {
        String topic = "orders";
        CLUSTER.createTopic(topic, 2, Map.of());
        try (KafkaProducer<byte[], byte[]> old = producer("orders-writer", 60_000);
             KafkaProducer<byte[], byte[]> next = producer("orders-writer", 60_000)) {
            old.initTransactions();
            old.beginTransaction();
            send(old, topic, "zombie", 20);
            next.initTransactions();
            KafkaException fenced = assertThrows(KafkaException.class, old::commitTransaction);
            assertTrue(fenced.toString(), fenced instanceof ProducerFencedException
                || fenced.getCause() instanceof ProducerFencedException || fenced instanceof InvalidProducerEpochException);
            next.beginTransaction();
            send(next, topic, "live", 10);
            next.commitTransaction();
        }
        assertEquals(values("live", 10), new HashSet<>(readAll(topic, "read_committed")));
    }

    @Test
    public void aTransactionOpenPastItsTimeoutIsAbortedAndItsProducerFenced() throws Exception {
        String topic = "slow";
        CLUSTER.createTopic(topic, 2, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = producer("slow-writer", 1_000)) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, "late", 10);
            Thread.sleep(3_000);
            assertThrows(KafkaException.class, producer::commitTransaction);
        }
        assertEquals("the aborted transaction holds no read-committed consumer back", List.of(),
            readAll(topic, "read_committed"));
    }

    @Test
    public void aProducerWhoseTransactionTimedOutMayRaiseItsEpochOnceAndTheFencedOneNever() throws Exception {
        String id = "recovering";
        CLUSTER.createTopic("recovered", 1, Map.of());
        int coordinator = coordinatorOf(id);
        try (RawClient client = new RawClient(CLUSTER.broker(coordinator).boundPort())) {
            InitProducerIdResponse first = initProducerId(client, id, -1L, (short) -1);
            assertEquals(0, first.producerEpoch());
            AddPartitionsToTxnResponse added = client.call(new AddPartitionsToTxnRequest(id, first.producerId(), (short) 0,
                List.of(new AddPartitionsToTxnRequest.Topic("recovered", List.of(0)))), (short) 3);
            assertEquals(Errors.NONE, added.results().get(0).partitions().get(0).error());
            // aborted at its 1 s timeout with the epoch raised to 1: epoch 0 may still ask for the next one
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            InitProducerIdResponse recovered;
            do {
                Thread.sleep(100);
                recovered = initProducerId(client, id, first.producerId(), (short) 0);
                assertTrue("still " + recovered.error(), System.nanoTime() < deadline);
            } while (recovered.error() == Errors.CONCURRENT_TRANSACTIONS || recovered.producerEpoch() < 0);
            assertEquals(Errors.NONE, recovered.error());
            assertEquals(first.producerId(), recovered.producerId());
            assertEquals(2, recovered.producerEpoch());
            assertEquals("epoch 0 is two raises behind now", Errors.PRODUCER_FENCED,
                initProducerId(client, id, first.producerId(), (short) 0).error());
        }
    }

    private static InitProducerIdResponse initProducerId(RawClient client, String id, long producerId, short epoch)
        throws Exception {
        return client.call(new InitProducerIdRequest(id, 1_000, producerId, epoch), (short) 4);
    }

    /** The broker coordinating {@code transactionalId}, once it has loaded the id's partition. */
    private static int coordinatorOf(String transactionalId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            while (true) {
                FindCoordinatorResponse found = client.call(new FindCoordinatorRequest(transactionalId,
                    FindCoordinatorRequest.TRANSACTION, List.of()), (short) 3);
                if (found.errorCode() == Errors.NONE.code()) {
                    try (RawClient coordinator = new RawClient(CLUSTER.broker(found.nodeId()).boundPort())) {
                        DescribeTransactionsResponse described = coordinator.call(
                            new DescribeTransactionsRequest(List.of(transactionalId)), (short) 0);
                        if (described.transactionStates().get(0).error() == Errors.TRANSACTIONAL_ID_NOT_FOUND) {
                            return found.nodeId();
                        }
                    }
                }
                assertTrue("no coordinator for " + transactionalId, System.nanoTime() < deadline);
                Thread.sleep(100);
            }
        }
    }

    @Test
    public void aHangingTransactionIsFoundByDescribeProducersAndAbortedByTheAdminClient() throws Exception {
        String topic = "hanging";
        CLUSTER.createTopic(topic, 1, Map.of());
        TopicPartition tp = new TopicPartition(topic, 0);
        // a transactional batch no coordinator knows of, as a producer that skipped AddPartitionsToTxn leaves one
        io.millrace.broker.log.Log log = CLUSTER.broker(CLUSTER.leader(topic, 0)).logManager().getLog(topic, 0).orElseThrow();
        log.append(io.millrace.common.record.RecordBatchBuilder.create(io.millrace.common.record.CompressionType.NONE, 0, 64)
            .producerState(999_999L, (short) 3, 0, true).append(System.currentTimeMillis(), null, utf8("stuck")).build());
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            org.apache.kafka.clients.admin.ProducerState hanging = admin.describeProducers(List.of(tp)).partitionResult(tp)
                .get(30, TimeUnit.SECONDS).activeProducers().get(0);
            assertEquals(java.util.OptionalLong.of(0), hanging.currentTransactionStartOffset());
            assertEquals("read-committed consumers stand before it", 0L, committedEnd(tp));
            // what kafka-transactions abort does: WriteTxnMarkers straight to the partition's leader
            admin.abortTransaction(new org.apache.kafka.clients.admin.AbortTransactionSpec(tp, hanging.producerId(),
                (short) hanging.producerEpoch(), hanging.coordinatorEpoch().orElse(0))).all().get(30, TimeUnit.SECONDS);
        }
        assertEquals("the batch and its abort marker are behind them now", 2L, committedEnd(tp));
        assertEquals(List.of(), readAll(topic, "read_committed"));
        assertEquals(List.of("stuck"), readAll(topic, "read_uncommitted"));
    }

    private static long committedEnd(TopicPartition tp) {
        Properties props = CLUSTER.clientProps();
        props.put("isolation.level", "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            return consumer.endOffsets(List.of(tp)).get(tp);
        }
    }

    @Test
    public void kafkasAdminClientDescribesAndListsTransactions() throws Exception {
        String topic = "audited";
        CLUSTER.createTopic(topic, 2, Map.of());
        try (KafkaProducer<byte[], byte[]> producer = producer("audited-writer", 60_000);
             Admin admin = Admin.create(CLUSTER.clientProps())) {
            producer.initTransactions();
            producer.beginTransaction();
            send(producer, topic, "open", 10);
            TransactionDescription open = admin.describeTransactions(List.of("audited-writer")).description("audited-writer")
                .get(30, TimeUnit.SECONDS);
            assertEquals(TransactionState.ONGOING, open.state());
            assertEquals(Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)), open.topicPartitions());
            assertEquals(60_000, open.transactionTimeoutMs());
            assertTrue(open.transactionStartTimeMs().isPresent());
            List<String> listed = admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
                .map(TransactionListing::transactionalId).toList();
            assertTrue(listed.toString(), listed.contains("audited-writer"));
            producer.commitTransaction();
            TransactionDescription done = admin.describeTransactions(List.of("audited-writer")).description("audited-writer")
                .get(30, TimeUnit.SECONDS);
            assertTrue("flagged internal, as on Kafka", admin.describeTopics(List.of("__transaction_state")).allTopicNames()
                .get(30, TimeUnit.SECONDS).get("__transaction_state").isInternal());
            assertTrue(done.state().toString(), Set.of(TransactionState.COMPLETE_COMMIT, TransactionState.PREPARE_COMMIT)
                .contains(done.state()));
        }
    }

    @Test
    public void aCopierCommittingItsOffsetsInItsTransactionsCopiesEveryRecordExactlyOnce() throws Exception {
        String input = "copy-in";
        String output = "copy-out";
        CLUSTER.createTopic(input, 2, Map.of());
        CLUSTER.createTopic(output, 2, Map.of());
        try (KafkaProducer<byte[], byte[]> plain = new KafkaProducer<>(CLUSTER.clientProps(), new ByteArraySerializer(),
            new ByteArraySerializer())) {
            send(plain, input, "in", 300);
        }
        // The first instance commits one transaction, then aborts its second, offsets and all, and stops.
        assertEquals(1, copy(input, output, 2));
        // The next instance goes on from the offsets the first committed, until the input is copied.
        copy(input, output, Integer.MAX_VALUE);
        List<String> copied = readAll(output, "read_committed");
        assertEquals("each input record once", 300, copied.size());
        assertEquals(values("in", 300), new HashSet<>(copied));
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets("copier").partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            assertEquals(300L, committed.values().stream().mapToLong(o -> o.offset()).sum());
        }
    }

    /**
     * Copies {@code input} to {@code output} in transactions of at most 50 records, each committing
     * the consumed offsets of group "copier"; the transaction numbered {@code abortAt} is aborted and
     * the copy stops there. Returns how many transactions it committed.
     */
    private static int copy(String input, String output, int abortAt) {
        Properties props = CLUSTER.clientProps();
        props.put("group.id", "copier");
        props.put("isolation.level", "read_committed");
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("max.poll.records", 50);
        int committed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                 new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = producer("copier-writer", 60_000)) {
            producer.initTransactions();
            List<TopicPartition> partitions = List.of(new TopicPartition(input, 0), new TopicPartition(input, 1));
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertTrue("copying took over 60 s", System.nanoTime() < deadline);
                var records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    producer.send(new ProducerRecord<>(output, record.key(), record.value()));
                }
                Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> offsets = new java.util.HashMap<>();
                for (TopicPartition tp : records.partitions()) {
                    offsets.put(tp, new org.apache.kafka.clients.consumer.OffsetAndMetadata(consumer.position(tp)));
                }
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                if (committed + 1 == abortAt) {
                    producer.abortTransaction();
                    return committed;
                }
                producer.commitTransaction();
                committed++;
            }
        }
        return committed;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
