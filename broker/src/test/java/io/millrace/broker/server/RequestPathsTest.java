package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.CreateTopicsRequest.CreatableTopic;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.InitProducerIdResponse;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.ListOffsetsResponse;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** Request paths the client tests do not reach: auto-creation, misdirected requests, byte limits, JMX. */
public class RequestPathsTest {

    private static final short PRODUCE_V = 9;
    private static final short FETCH_V = 12;
    private static final short METADATA_V = 12;
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of(
        BrokerConfig.AUTO_CREATE_TOPICS_ENABLE_CONFIG, true,
        BrokerConfig.NUM_PARTITIONS_CONFIG, 3));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void metadataForAnUnknownTopicCreatesItAndAnswersLeaderNotAvailableUntilItHasLeaders() throws Exception {
        MetadataResponse.Topic first = metadata(0, "auto-created", true);
        assertEquals(Errors.LEADER_NOT_AVAILABLE, first.error());
        assertTrue(first.partitions().isEmpty());
        Conditions.waitUntil(() -> metadataQuietly("auto-created").error() == Errors.NONE, "the topic to be created");
        MetadataResponse.Topic created = metadata(0, "auto-created", true);
        assertEquals(3, created.partitions().size());
        created.partitions().forEach(p -> assertTrue("leader of " + p.partitionIndex(), p.leaderId() >= 0));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, metadata(0, "not-auto-created", false).error());
    }

    @Test
    public void produceAndFetchSentToABrokerThatDoesNotLeadThePartitionAreRefusedWithNotLeader() throws Exception {
        CLUSTER.createTopic("misdirected", 4, Map.of());
        for (int p = 0; p < 4; p++) {
            int leader = CLUSTER.broker(0).cluster().metadata().snapshot().leader("misdirected", p);
            int other = 1 - leader;
            assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, produce(other, "misdirected", p, batch(1, 10)));
            assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, fetch(other, "misdirected", List.of(p), 1 << 20, 1 << 20).get(0).error());
            assertEquals(Errors.NONE, produce(leader, "misdirected", p, batch(1, 10)));
        }
    }

    @Test
    public void fetchStopsAtMaxBytesButTheFirstPartitionGetsAWholeBatchEvenIfMaxBytesIsSmaller() throws Exception {
        CLUSTER.createTopic("limits", 4, Map.of());
        List<Integer> onZero = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            if (CLUSTER.broker(0).cluster().metadata().snapshot().leader("limits", p) == 0) {
                onZero.add(p);
            }
        }
        assertTrue("broker 0 leads two partitions: " + onZero, onZero.size() >= 2);
        int batchSize = batch(10, 100).remaining();
        for (int p : onZero) {
            for (int i = 0; i < 3; i++) {
                assertEquals(Errors.NONE, produce(0, "limits", p, batch(10, 100)));
            }
        }
        // max_bytes of one byte: the first partition still gets one whole batch, the next nothing.
        List<FetchResponse.PartitionData> tiny = fetch(0, "limits", onZero, 1, 1 << 20);
        assertEquals(batchSize, tiny.get(0).records().sizeInBytes());
        assertEquals(0, tiny.get(1).records().sizeInBytes());
        // Room for two and a half batches: the response stops at max_bytes exactly, as Kafka's does
        // (the client drops the partial batch at the end and fetches it again), nothing after it.
        List<FetchResponse.PartitionData> partial = fetch(0, "limits", onZero, batchSize * 5 / 2, 1 << 20);
        assertEquals(batchSize * 5 / 2, partial.get(0).records().sizeInBytes());
        assertEquals(0, partial.get(1).records().sizeInBytes());
        // A partition limit of one batch: each partition gives one batch.
        List<FetchResponse.PartitionData> perPartition = fetch(0, "limits", onZero, 1 << 20, batchSize);
        perPartition.forEach(d -> assertEquals(batchSize, d.records().sizeInBytes()));
        perPartition.forEach(d -> assertEquals(3 * 10, d.highWatermark()));
    }

    @Test
    public void anUnknownTopicIdIsUnknownFromMetadataV12AndRefusedBefore() throws Exception {
        MetadataRequest byId = new MetadataRequest(List.of(new MetadataRequest.Topic(java.util.UUID.randomUUID(), null)),
            false, false, false);
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            MetadataResponse response = client.call(byId, (short) 12);
            assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), response.topics().get(0).errorCode());
        }
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            client.send(byId, (short) 11);
            assertTrue("a v11 request naming a topic only by id closes the connection", client.closedByBroker());
        }
        assertEquals("the broker still answers", Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
            metadata(0, "never-created", false).errorCode());
    }

    @Test
    public void aTopicNamedTwiceInOneCreateTopicsRequestFailsWithInvalidRequest() throws Exception {
        CreatableTopic twice = new CreatableTopic("twice", 1, (short) 1, List.of(), List.of());
        CreatableTopic once = new CreatableTopic("once", 1, (short) 1, List.of(), List.of());
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            CreateTopicsResponse response = client.call(new CreateTopicsRequest(List.of(twice, once, twice), 10_000, false),
                (short) 7);
            assertEquals(List.of(Errors.INVALID_REQUEST, Errors.NONE, Errors.INVALID_REQUEST),
                response.topics().stream().map(CreateTopicsResponse.CreatableTopicResult::error).toList());
        }
        assertTrue(CLUSTER.broker(0).cluster().metadata().snapshot().hasTopic("once"));
        assertTrue(!CLUSTER.broker(0).cluster().metadata().snapshot().hasTopic("twice"));
    }

    @Test
    public void listOffsetsGivesTheLeaderEpochOfEachOffsetFromVersion4() throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            // two replicas: a replicated partition's leader stamps its epoch on every batch, as Kafka's does
            CreateTopicsResponse created = client.call(new CreateTopicsRequest(
                List.of(new CreatableTopic("epoch-stamped", 1, (short) 2, List.of(), List.of())), 10_000, false), (short) 7);
            assertEquals(Errors.NONE, created.topics().get(0).error());
        }
        CLUSTER.awaitLogs("epoch-stamped", 1);
        int leader = CLUSTER.broker(0).cluster().metadata().snapshot().leader("epoch-stamped", 0);
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 256);
        for (long timestamp : new long[] {3_000, 9_000}) {
            builder.append(timestamp, null, "v".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(Errors.NONE, produce(leader, "epoch-stamped", 0, builder.build()));
        int epoch = CLUSTER.broker(leader).cluster().metadata().snapshot().partitionState("epoch-stamped", 0)
            .orElseThrow().leaderEpoch();
        try (RawClient client = new RawClient(CLUSTER.broker(leader).boundPort())) {
            for (long target : new long[] {ListOffsetsRequest.EARLIEST_TIMESTAMP, ListOffsetsRequest.LATEST_TIMESTAMP, 5_000,
                ListOffsetsRequest.MAX_TIMESTAMP}) {
                ListOffsetsRequest request = new ListOffsetsRequest(-1, (byte) 0, List.of(new ListOffsetsRequest.ListOffsetsTopic(
                    "epoch-stamped", List.of(new ListOffsetsRequest.ListOffsetsPartition(0, -1, target)))));
                ListOffsetsResponse.ListOffsetsPartitionResponse answer = client.<ListOffsetsResponse>call(request, (short) 7)
                    .topics().get(0).partitions().get(0);
                assertEquals("target " + target, Errors.NONE.code(), answer.errorCode());
                assertEquals("target " + target, epoch, answer.leaderEpoch());
            }
            ListOffsetsRequest none = new ListOffsetsRequest(-1, (byte) 0, List.of(new ListOffsetsRequest.ListOffsetsTopic(
                "epoch-stamped", List.of(new ListOffsetsRequest.ListOffsetsPartition(0, -1, 10_000)))));
            assertEquals("no offset, no epoch", -1,
                client.<ListOffsetsResponse>call(none, (short) 7).topics().get(0).partitions().get(0).leaderEpoch());
        }
    }

    @Test
    public void listOffsetsMaxTimestampIsServedFromVersion7AndUnsupportedBefore() throws Exception {
        CLUSTER.createTopic("max-timestamp", 1, Map.of());
        int leader = CLUSTER.broker(0).cluster().metadata().snapshot().leader("max-timestamp", 0);
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.LZ4, 0L, 256);
        for (long timestamp : new long[] {3_000, 9_000, 1_000, 9_000}) {
            builder.append(timestamp, null, "v".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(Errors.NONE, produce(leader, "max-timestamp", 0, builder.build()));
        ListOffsetsRequest request = new ListOffsetsRequest(-1, (byte) 0, List.of(new ListOffsetsRequest.ListOffsetsTopic(
            "max-timestamp", List.of(new ListOffsetsRequest.ListOffsetsPartition(0, -1, ListOffsetsRequest.MAX_TIMESTAMP)))));
        try (RawClient client = new RawClient(CLUSTER.broker(leader).boundPort())) {
            ListOffsetsResponse.ListOffsetsPartitionResponse v7 = client.<ListOffsetsResponse>call(request, (short) 7)
                .topics().get(0).partitions().get(0);
            assertEquals(Errors.NONE.code(), v7.errorCode());
            assertEquals(9_000, v7.timestamp());
            assertEquals(1, v7.offset());
            ListOffsetsResponse.ListOffsetsPartitionResponse v6 = client.<ListOffsetsResponse>call(request, (short) 6)
                .topics().get(0).partitions().get(0);
            assertEquals(Errors.UNSUPPORTED_VERSION.code(), v6.errorCode());
            assertEquals(-1, v6.offset());
            assertEquals(-1, v6.timestamp());
        }
    }

    @Test
    public void initProducerIdAnswersIncreasingIdsPastABlockAndNoIdTwiceAcrossBrokers() throws Exception {
        Set<Long> seen = new HashSet<>();
        for (int broker = 0; broker < 2; broker++) {
            try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
                long previous = -1;
                // More than a block of 1000, so the broker moves on to a second block.
                for (int i = 0; i < 1_200; i++) {
                    InitProducerIdResponse response = client.call(new InitProducerIdRequest(null, 60_000, -1L, (short) -1),
                        (short) 4);
                    assertEquals(Errors.NONE.code(), response.errorCode());
                    assertEquals(0, response.producerEpoch());
                    assertTrue(response.producerId() + " after " + previous, response.producerId() > previous);
                    assertTrue("id " + response.producerId() + " handed out twice", seen.add(response.producerId()));
                    previous = response.producerId();
                }
                // A transactional id goes to its coordinator, which refuses a timeout over transaction.max.timeout.ms
                InitProducerIdResponse transactional = client.call(new InitProducerIdRequest("tx", 900_001, -1L, (short) -1),
                    (short) 4);
                assertEquals(Errors.INVALID_TRANSACTION_TIMEOUT.code(), transactional.errorCode());
                assertEquals(-1, transactional.producerId());
            }
        }
    }

    @Test
    public void everyBrokerNamesTheSameTransactionCoordinatorInEveryVersion() throws Exception {
        int coordinator = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int broker = 0; broker < 2; broker++) {
            try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
                for (short version = 1; version < FindCoordinatorRequest.FIRST_BATCHED_VERSION; version++) {
                    FindCoordinatorResponse single;
                    do {
                        // COORDINATOR_NOT_AVAILABLE, which clients retry, while __transaction_state is made
                        single = client.call(new FindCoordinatorRequest("payments", FindCoordinatorRequest.TRANSACTION,
                            List.of()), version);
                        assertTrue("no coordinator in 30 s: " + single.errorMessage(), System.nanoTime() < deadline);
                    } while (single.errorCode() == Errors.COORDINATOR_NOT_AVAILABLE.code());
                    assertEquals("v" + version + ": " + single.errorMessage(), Errors.NONE.code(), single.errorCode());
                    coordinator = coordinator < 0 ? single.nodeId() : coordinator;
                    assertEquals("broker " + broker + ", v" + version, coordinator, single.nodeId());
                }
                FindCoordinatorResponse batched = client.call(new FindCoordinatorRequest("", FindCoordinatorRequest.TRANSACTION,
                    List.of("payments", "")), FindCoordinatorRequest.FIRST_BATCHED_VERSION);
                assertEquals(coordinator, batched.coordinators().get(0).nodeId());
                assertEquals("an empty transactional id", Errors.INVALID_REQUEST, batched.coordinators().get(1).error());
            }
        }
    }

    @Test
    public void perApiRequestMetricsCountAndTimeRequestsInJmx() throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        ObjectName metadata = new ObjectName("io.millrace:type=request-metrics,broker=1,request=Metadata");
        long before = (Long) jmx.getAttribute(metadata, "request-total");
        for (int i = 0; i < 5; i++) {
            metadata(1, "jmx-" + i, false);
        }
        assertEquals(before + 5, jmx.getAttribute(metadata, "request-total"));
        Conditions.waitUntil(() -> maxMs(jmx, metadata) > 0.0, "the latency to be recorded");
        assertTrue((Double) jmx.getAttribute(metadata, "total-time-ms-avg") > 0.0);
    }

    private static double maxMs(MBeanServer jmx, ObjectName name) {
        try {
            return (Double) jmx.getAttribute(name, "total-time-ms-max");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static MetadataResponse.Topic metadataQuietly(String topic) {
        try {
            return metadata(0, topic, false);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static MetadataResponse.Topic metadata(int broker, String topic, boolean allowAutoCreate) throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            MetadataResponse response = client.call(new MetadataRequest(List.of(MetadataRequest.Topic.named(topic)),
                allowAutoCreate, false, false), METADATA_V);
            return response.topics().get(0);
        }
    }

    private static Errors produce(int broker, String topic, int partition, ByteBuffer records) throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            ProduceRequest request = new ProduceRequest(null, (short) 1, 10_000, List.of(
                new ProduceRequest.TopicData(topic, List.of(new ProduceRequest.PartitionData(partition, records)))));
            ProduceResponse response = client.call(request, PRODUCE_V);
            return response.responses().get(0).partitionResponses().get(0).error();
        }
    }

    private static List<FetchResponse.PartitionData> fetch(int broker, String topic, List<Integer> partitions, int maxBytes,
                                                           int partitionMaxBytes) throws Exception {
        List<FetchRequest.FetchPartition> asked = partitions.stream()
            .map(p -> FetchRequest.FetchPartition.of(p, 0, partitionMaxBytes)).toList();
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            FetchResponse response = client.call(new FetchRequest(-1, 0, 1, maxBytes, (byte) 0, 0, -1,
                List.of(new FetchRequest.FetchTopic(topic, asked)), List.of(), ""), FETCH_V);
            return response.responses().get(0).partitions();
        }
    }

    private static ByteBuffer batch(int records, int valueBytes) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        byte[] value = "v".repeat(valueBytes).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L + i, ("k" + i).getBytes(StandardCharsets.UTF_8), value);
        }
        return builder.build();
    }
}
