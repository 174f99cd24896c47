package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeProducersRequest;
import io.millrace.common.protocol.message.DescribeProducersResponse;
import io.millrace.common.protocol.message.DescribeProducersResponse.PartitionResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient describing the idempotent producers two Millrace brokers' partitions remember
 * (DescribeProducers): each producer's id, epoch, last sequence number and last timestamp, from the
 * leader or a follower alike; NOT_LEADER_OR_FOLLOWER from a broker without a replica and
 * UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist, as from Kafka.
 */
public class DescribeProducersTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void theLeaderDescribesEachProducersEpochLastSequenceAndTimestamp() throws Exception {
        String topic = "described";
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 2))).all().get(30, TimeUnit.SECONDS);
            CLUSTER.awaitLogs(topic, 2);
            long before = System.currentTimeMillis();
            send(topic, Map.of(0, 10, 1, 5));
            send(topic, Map.of(0, 3));
            long after = System.currentTimeMillis();

            TopicPartition p0 = new TopicPartition(topic, 0);
            TopicPartition p1 = new TopicPartition(topic, 1);
            List<ProducerState> onP0 = producers(admin, p0, new DescribeProducersOptions());
            List<ProducerState> onP1 = producers(admin, p1, new DescribeProducersOptions());
            assertEquals(onP0.toString(), 2, onP0.size());
            assertEquals(onP1.toString(), 1, onP1.size());
            // the first producer wrote to both partitions, the second to partition 0 only
            long firstId = onP1.get(0).producerId();
            assertEquals(4, onP1.get(0).lastSequence());
            ProducerState firstOnP0 = onP0.stream().filter(p -> p.producerId() == firstId).findFirst().orElseThrow();
            ProducerState secondOnP0 = onP0.stream().filter(p -> p.producerId() != firstId).findFirst().orElseThrow();
            assertEquals(9, firstOnP0.lastSequence());
            assertEquals(2, secondOnP0.lastSequence());
            for (ProducerState state : List.of(onP0.get(0), onP0.get(1), onP1.get(0))) {
                assertTrue(state.toString(), state.producerId() >= 0);
                assertEquals(0, state.producerEpoch());
                assertTrue(state.toString(), state.lastTimestamp() >= before && state.lastTimestamp() <= after);
                assertTrue(state.coordinatorEpoch().isEmpty());
                assertTrue(state.currentTransactionStartOffset().isEmpty());
            }
            // the partition's own log says the same
            Log log = CLUSTER.broker(leader(topic, 0)).logManager().getLog(topic, 0).orElseThrow();
            assertEquals(onP0.stream().map(ProducerState::producerId).collect(Collectors.toSet()),
                log.producerState().entries().stream().map(e -> e.producerId()).collect(Collectors.toSet()));
        }
    }

    @Test
    public void aFollowerAnswersAsTheLeaderDoesABrokerWithoutAReplicaAndAnUnknownPartitionAreRefusedAsOnKafka()
        throws Exception {
        String topic = "followed";
        String single = "single";
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 2), new NewTopic(single, 1, (short) 1)))
                .all().get(30, TimeUnit.SECONDS);
            CLUSTER.awaitLogs(topic, 1);
            CLUSTER.awaitLogs(single, 1);
            send(topic, Map.of(0, 1));
            int follower = 1 - leader(topic, 0);
            TopicPartition partition = new TopicPartition(topic, 0);
            // any replica answers from its own copy (kafka-transactions find-hanging asks each broker of its replicas)
            List<ProducerState> fromLeader = producers(admin, partition, new DescribeProducersOptions());
            assertEquals(1, fromLeader.size());
            assertEquals(fromLeader, producers(admin, partition, new DescribeProducersOptions().brokerId(follower)));
            TopicPartition elsewhere = new TopicPartition(single, 0);
            int withoutReplica = 1 - leader(single, 0);
            assertFailsWith(NotLeaderOrFollowerException.class,
                () -> producers(admin, elsewhere, new DescribeProducersOptions().brokerId(withoutReplica)));
        }
        // the AdminClient retries UNKNOWN_TOPIC_OR_PARTITION until its timeout: the broker's answer, on the wire
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            DescribeProducersResponse answer = client.call(new DescribeProducersRequest(List.of(
                new DescribeProducersRequest.TopicRequest(topic, List.of(7)),
                new DescribeProducersRequest.TopicRequest("absent", List.of(0)))), (short) 0);
            assertEquals(List.of(topic, "absent"), answer.topics().stream().map(t -> t.name()).toList());
            for (DescribeProducersResponse.TopicResponse described : answer.topics()) {
                PartitionResponse only = described.partitions().get(0);
                assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, only.error());
                assertTrue(only.activeProducers().isEmpty());
            }
        }
    }

    private static List<ProducerState> producers(Admin admin, TopicPartition partition, DescribeProducersOptions options)
        throws Exception {
        return admin.describeProducers(List.of(partition), options).partitionResult(partition).get(30, TimeUnit.SECONDS)
            .activeProducers().stream().sorted(Comparator.comparingLong(ProducerState::producerId)).toList();
    }

    /** One idempotent producer sending {@code counts.get(p)} records to each partition p. */
    private static void send(String topic, Map<Integer, Integer> counts) throws Exception {
        Properties props = CLUSTER.clientProps();
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (Map.Entry<Integer, Integer> partition : counts.entrySet()) {
                for (int i = 0; i < partition.getValue(); i++) {
                    // one record per request: each a batch of its own, each sequence number checked
                    producer.send(new ProducerRecord<>(topic, partition.getKey(), null, new byte[] {(byte) i})).get();
                }
            }
        }
    }

    private static int leader(String topic, int partition) {
        return CLUSTER.broker(0).cluster().metadata().snapshot().leader(topic, partition);
    }

    private static void assertFailsWith(Class<? extends Throwable> expected, ThrowingCall call) {
        ExecutionException failure = assertThrows(ExecutionException.class, call::run);
        assertTrue(String.valueOf(failure.getCause()), expected.isInstance(failure.getCause()));
    }

    @FunctionalInterface
    private interface ThrowingCall {
        void run() throws Exception;
    }
}
