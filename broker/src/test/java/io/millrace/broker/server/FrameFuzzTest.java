package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.LeakRecorder;
import io.millrace.broker.network.MetricGroup;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.message.ApiVersionsRequest;
import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.DeleteTopicsRequest;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.HeartbeatRequest;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.LeaveGroupRequest;
import io.millrace.common.protocol.message.OffsetCommitRequest;
import io.millrace.common.protocol.message.OffsetFetchRequest;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thousands of random and mutated request frames over many connections, then a well-behaved client.
 * The seeds are real requests, one per API and version the broker serves, written by the codec the
 * clients use; each connection sends a few of them mutated (bit flips, truncation, wrong length
 * fields, random api keys and versions, random bodies, spliced bytes) or frames of pure noise.
 *
 * <p>What must hold: every connection either gets its answers or is closed, within a bounded
 * read (a hang fails the test); afterwards no request is stuck in flight (other than fetches
 * legitimately waiting out a mutated max_wait_ms), no network thread died, no buffer leaked, the
 * fuzzed topic is readable by Kafka's consumer and a producer/consumer round trip works.
 *
 * <p>Rerun a failure with {@code -Dfuzz.seed=<the seed in the failure message>}.
 */
public class FrameFuzzTest {

    private static final Logger LOG = LoggerFactory.getLogger(FrameFuzzTest.class);
    private static final int MAX_REQUEST = 64 * 1024;
    private static final int CONNECTIONS = 600;
    private static final int MAX_FRAMES_PER_CONNECTION = 16;
    private static final int PROBE_CORRELATION_ID = 0x7ABC_DEF0;
    private static final int READ_TIMEOUT_MS = 15_000;
    private static final String TOPIC = "fuzz";
    private static final String GROUP = "fuzz-group";
    private static final String NETWORK_THREAD = "millrace-network-thread";

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, MAX_REQUEST,
        NetworkConfig.CONNECTIONS_MAX_IDLE_MS_CONFIG, 5_000L,
        BrokerConfig.AUTO_CREATE_TOPICS_ENABLE_CONFIG, false,
        LogConfig.MESSAGE_MAX_BYTES_CONFIG, 16 * 1024));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(new LeakRecorder()).around(ZOOKEEPER).around(CLUSTER);

    @Test
    public void mutatedAndRandomFramesNeitherHangNorHarmTheBroker() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        LOG.info("Frame fuzz seed {} (rerun with -Dfuzz.seed={})", seed, seed);
        try {
            fuzz(seed);
        } catch (AssertionError | Exception e) {
            throw new AssertionError("Frame fuzz failed with seed " + seed + " (rerun with -Dfuzz.seed=" + seed + "): "
                + e, e);
        }
    }

    private static void fuzz(long seed) throws Exception {
        CLUSTER.createTopic(TOPIC, 2, Map.of());
        List<byte[]> seeds = seedFrames();
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
        int frames;
        try {
            frames = sendAll(seed, seeds);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        LOG.info("Sent {} fuzzed frames from {} seeds over {} connections", frames, seeds.size(), CONNECTIONS);
        assertTrue("thousands of frames: " + frames, frames >= 2_000);
        assertEquals("uncaught exceptions: " + uncaught, List.of(), uncaught);
        assertNoStuckRequests();
        // Netty starts event loops lazily and never replaces one that died: all of them must be here.
        List<String> networkThreads = networkThreads();
        assertEquals("network threads alive: " + networkThreads, 2, networkThreads.size());
        assertFuzzedTopicIsReadable();
        assertRoundTripWorks();
        assertEquals("network threads alive", networkThreads, networkThreads());
    }

    // ---- seeds: one real request per API and version ------------------------------------------

    private static List<byte[]> seedFrames() {
        List<byte[]> frames = new ArrayList<>();
        int correlationId = 1;
        for (ApiKey api : ApiKey.values()) {
            for (short v = api.minVersion(); v <= api.maxVersion() && api.advertised(); v++) {
                RequestHeader header = new RequestHeader(api, v, correlationId++, "fuzz-client");
                frames.add(bytes(Frames.request(header, seedBody(api, v))));
            }
        }
        return frames;
    }

    private static final io.millrace.common.protocol.message.AclBinding ACL = new io.millrace.common.protocol.message.AclBinding(
        (byte) 2, TOPIC, (byte) 3, "User:fuzz", "*", (byte) 3, (byte) 3);

    private static ApiMessage seedBody(ApiKey api, short v) {
        return switch (api) {
            case API_VERSIONS -> new ApiVersionsRequest("fuzz", "1.0");
            case METADATA -> new MetadataRequest(List.of(MetadataRequest.Topic.named(TOPIC)), false, false, false);
            case PRODUCE -> new ProduceRequest(null, (short) 1, 5_000, List.of(new ProduceRequest.TopicData(TOPIC,
                List.of(new ProduceRequest.PartitionData(0, batch())))));
            case FETCH -> new FetchRequest(-1, 20, 1, 64 * 1024, (byte) 0, 0, -1, List.of(new FetchRequest.FetchTopic(TOPIC,
                List.of(FetchRequest.FetchPartition.of(0, 0, 32 * 1024)))), List.of(), "");
            case LIST_OFFSETS -> new ListOffsetsRequest(-1, (byte) 0, List.of(new ListOffsetsRequest.ListOffsetsTopic(TOPIC,
                List.of(new ListOffsetsRequest.ListOffsetsPartition(0, -1, -1L)))));
            // validate_only, so that a mutated name or count creates nothing unless that bit flips too
            case CREATE_TOPICS -> new CreateTopicsRequest(List.of(new CreateTopicsRequest.CreatableTopic("fuzz-new", 1,
                (short) 1, List.of(), List.of())), 1_000, true);
            case DELETE_TOPICS -> new DeleteTopicsRequest(List.of(DeleteTopicsRequest.TopicRef.named("fuzz-absent")), 1_000);
            case INIT_PRODUCER_ID -> new InitProducerIdRequest(null, 60_000, -1L, (short) -1);
            case DESCRIBE_CONFIGS -> new io.millrace.common.protocol.message.DescribeConfigsRequest(List.of(
                new io.millrace.common.protocol.message.DescribeConfigsRequest.Resource(
                    io.millrace.common.protocol.message.DescribeConfigsRequest.TOPIC, TOPIC, null)), true, true);
            case CREATE_PARTITIONS -> new io.millrace.common.protocol.message.CreatePartitionsRequest(List.of(
                new io.millrace.common.protocol.message.CreatePartitionsRequest.CreatePartitionsTopic("fuzz-absent", 2, null)),
                1_000, true);
            // an absent topic, so that a mutated offset deletes nothing the other seeds read
            case DELETE_RECORDS -> new io.millrace.common.protocol.message.DeleteRecordsRequest(List.of(
                new io.millrace.common.protocol.message.DeleteRecordsRequest.DeleteRecordsTopic("fuzz-absent", List.of(
                    new io.millrace.common.protocol.message.DeleteRecordsRequest.DeleteRecordsPartition(0, 1L)))), 1_000);
            case DESCRIBE_LOG_DIRS -> new io.millrace.common.protocol.message.DescribeLogDirsRequest(List.of(
                new io.millrace.common.protocol.message.DescribeLogDirsRequest.DescribableLogDirTopic(TOPIC, List.of(0, 1))));
            // an absent topic, so that a mutated frame moves no leader the other seeds rely on
            case ELECT_LEADERS -> new io.millrace.common.protocol.message.ElectLeadersRequest(
                io.millrace.common.protocol.message.ElectLeadersRequest.PREFERRED, List.of(
                    new io.millrace.common.protocol.message.ElectLeadersRequest.TopicPartitions("fuzz-absent", List.of(0))), 1_000);
            // an absent topic, so that a mutated frame moves no partition the other seeds rely on
            case ALTER_PARTITION_REASSIGNMENTS -> new io.millrace.common.protocol.message.AlterPartitionReassignmentsRequest(
                1_000, true, List.of(new io.millrace.common.protocol.message.AlterPartitionReassignmentsRequest.ReassignableTopic(
                    "fuzz-absent", List.of(new io.millrace.common.protocol.message.AlterPartitionReassignmentsRequest
                        .ReassignablePartition(0, List.of(0))))));
            case LIST_PARTITION_REASSIGNMENTS -> new io.millrace.common.protocol.message.ListPartitionReassignmentsRequest(1_000,
                null);
            case DESCRIBE_PRODUCERS -> new io.millrace.common.protocol.message.DescribeProducersRequest(List.of(
                new io.millrace.common.protocol.message.DescribeProducersRequest.TopicRequest(TOPIC, List.of(0, 1))));
            case DESCRIBE_CLIENT_QUOTAS -> new io.millrace.common.protocol.message.DescribeClientQuotasRequest(List.of(
                new io.millrace.common.protocol.message.DescribeClientQuotasRequest.Component("user", (byte) 2, null)), false);
            case ALTER_CLIENT_QUOTAS -> new io.millrace.common.protocol.message.AlterClientQuotasRequest(List.of(
                new io.millrace.common.protocol.message.AlterClientQuotasRequest.Entry(List.of(
                    new io.millrace.common.protocol.message.ClientQuotaEntity("user", "fuzz")), List.of(
                    new io.millrace.common.protocol.message.AlterClientQuotasRequest.Op("producer_byte_rate", 1024.0, false)))),
                false);
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> new io.millrace.common.protocol.message.DescribeUserScramCredentialsRequest(
                List.of("fuzz"));
            case ALTER_USER_SCRAM_CREDENTIALS -> new io.millrace.common.protocol.message.AlterUserScramCredentialsRequest(List.of(
                new io.millrace.common.protocol.message.AlterUserScramCredentialsRequest.Deletion("fuzz", (byte) 1)), List.of(
                new io.millrace.common.protocol.message.AlterUserScramCredentialsRequest.Upsertion("fuzz", (byte) 1, 4096,
                    ByteBuffer.wrap(new byte[] {1, 2}), ByteBuffer.wrap(new byte[] {3, 4}))));
            case LIST_TRANSACTIONS -> new io.millrace.common.protocol.message.ListTransactionsRequest(List.of("Ongoing"),
                List.of(1L), -1L, "fuzz.*");
            case DESCRIBE_ACLS -> new io.millrace.common.protocol.message.DescribeAclsRequest(ACL);
            case CREATE_ACLS -> new io.millrace.common.protocol.message.CreateAclsRequest(List.of(ACL));
            case DELETE_ACLS -> new io.millrace.common.protocol.message.DeleteAclsRequest(List.of(ACL));
            case OFFSET_FOR_LEADER_EPOCH -> new io.millrace.common.protocol.message.OffsetForLeaderEpochRequest(-1, List.of(
                new io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderTopic(TOPIC, List.of(
                    new io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderPartition(0, -1, -1)))));
            case FIND_COORDINATOR -> v < FindCoordinatorRequest.FIRST_BATCHED_VERSION ? FindCoordinatorRequest.forGroup(GROUP)
                : FindCoordinatorRequest.forGroups(List.of(GROUP, "fuzz-other"));
            case JOIN_GROUP -> new JoinGroupRequest(GROUP, 10_000, 10_000, "", null, "consumer",
                List.of(new JoinGroupRequest.Protocol("range", ByteBuffer.wrap(new byte[] {0, 1, 2}))), null);
            case SYNC_GROUP -> new SyncGroupRequest(GROUP, 1, "fuzz-member", null, null, null,
                List.of(new SyncGroupRequest.Assignment("fuzz-member", ByteBuffer.wrap(new byte[] {3, 4}))));
            case HEARTBEAT -> new HeartbeatRequest(GROUP, 1, "fuzz-member", null);
            case LEAVE_GROUP -> v < LeaveGroupRequest.FIRST_BATCHED_VERSION
                ? new LeaveGroupRequest(GROUP, "fuzz-member", List.of())
                : new LeaveGroupRequest(GROUP, "", List.of(new LeaveGroupRequest.Member("fuzz-member", null, null)));
            case OFFSET_COMMIT -> new OffsetCommitRequest(GROUP, -1, "", -1, null, List.of(new OffsetCommitRequest.Topic(
                TOPIC, List.of(new OffsetCommitRequest.Partition(0, 1, -1, "fuzz")))));
            case OFFSET_FETCH -> {
                List<OffsetFetchRequest.Topic> topics = List.of(new OffsetFetchRequest.Topic(TOPIC, List.of(0, 1)));
                yield v < OffsetFetchRequest.FIRST_BATCHED_VERSION ? new OffsetFetchRequest(GROUP, topics, false, List.of())
                    : new OffsetFetchRequest("", List.of(), false, List.of(new OffsetFetchRequest.Group(GROUP, null, -1, topics)));
            }
            case LIST_GROUPS -> new io.millrace.common.protocol.message.ListGroupsRequest(List.of("Empty"), List.of("classic"));
            case DESCRIBE_GROUPS -> new io.millrace.common.protocol.message.DescribeGroupsRequest(List.of(GROUP, "fuzz-other"),
                false);
            case DELETE_GROUPS -> new io.millrace.common.protocol.message.DeleteGroupsRequest(List.of("fuzz-absent-group"));
            case OFFSET_DELETE -> new io.millrace.common.protocol.message.OffsetDeleteRequest(GROUP, List.of(
                new io.millrace.common.protocol.message.OffsetDeleteRequest.Topic(TOPIC, List.of(0))));
            case CONSUMER_GROUP_HEARTBEAT -> new io.millrace.common.protocol.message.ConsumerGroupHeartbeatRequest("fuzz-kip848",
                "", 0, null, null, 10_000, List.of(TOPIC), null, null, List.of());
            case DESCRIBE_CLUSTER -> new io.millrace.common.protocol.message.DescribeClusterRequest(false,
                io.millrace.common.protocol.message.DescribeClusterRequest.ENDPOINT_BROKERS, false);
            // validate_only and a harmless setting, so that a mutated value changes little even if that bit flips too
            case INCREMENTAL_ALTER_CONFIGS -> new io.millrace.common.protocol.message.IncrementalAlterConfigsRequest(List.of(
                new io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.Resource(
                    io.millrace.common.protocol.message.DescribeConfigsRequest.TOPIC, TOPIC, List.of(
                        new io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.AlterableConfig("flush.ms",
                            io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.SET, "60000")))), true);
            case ALTER_CONFIGS -> new io.millrace.common.protocol.message.AlterConfigsRequest(List.of(
                new io.millrace.common.protocol.message.AlterConfigsRequest.Resource(
                    io.millrace.common.protocol.message.DescribeConfigsRequest.TOPIC, TOPIC, List.of(
                        new io.millrace.common.protocol.message.AlterConfigsRequest.AlterableConfig("flush.ms", "60000")))), true);
            case ADD_PARTITIONS_TO_TXN -> new io.millrace.common.protocol.message.AddPartitionsToTxnRequest("fuzz-txn", 1L,
                (short) 0, List.of(new io.millrace.common.protocol.message.AddPartitionsToTxnRequest.Topic(TOPIC, List.of(0))));
            case END_TXN -> new io.millrace.common.protocol.message.EndTxnRequest("fuzz-txn", 1L, (short) 0, true);
            case ADD_OFFSETS_TO_TXN -> new io.millrace.common.protocol.message.AddOffsetsToTxnRequest("fuzz-txn", 1L,
                (short) 0, GROUP);
            case TXN_OFFSET_COMMIT -> new io.millrace.common.protocol.message.TxnOffsetCommitRequest("fuzz-txn", GROUP, 1L,
                (short) 0, -1, "", null, List.of(new io.millrace.common.protocol.message.TxnOffsetCommitRequest.Topic(TOPIC,
                    List.of(new io.millrace.common.protocol.message.TxnOffsetCommitRequest.Partition(0, 1L, -1, "")))));
            case WRITE_TXN_MARKERS -> new io.millrace.common.protocol.message.WriteTxnMarkersRequest(List.of(
                new io.millrace.common.protocol.message.WriteTxnMarkersRequest.Marker(1L, (short) 0, false, List.of(
                    new io.millrace.common.protocol.message.WriteTxnMarkersRequest.Topic(TOPIC, List.of(0))), 0)));
            case DESCRIBE_TRANSACTIONS -> new io.millrace.common.protocol.message.DescribeTransactionsRequest(
                List.of("fuzz-txn"));
            default -> throw new IllegalArgumentException(api + " is not served");
        };
    }

    private static ByteBuffer batch() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 256);
        for (int i = 0; i < 3; i++) {
            builder.append(1_000L + i, ("k" + i).getBytes(StandardCharsets.UTF_8), "fuzz".getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    // ---- mutation -----------------------------------------------------------------------------

    // ---- sending ------------------------------------------------------------------------------

    /** Runs every connection on a few threads; returns the number of fuzzed frames sent. */
    private static int sendAll(long seed, List<byte[]> seeds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            // Random's first outputs for neighbouring seeds are correlated: derive well-mixed ones.
            java.util.SplittableRandom seeds0 = new java.util.SplittableRandom(seed);
            for (int c = 0; c < CONNECTIONS; c++) {
                Random random = new Random(seeds0.nextLong());
                int connection = c;
                sent.add(pool.submit(() -> connection(connection, random, seeds)));
            }
            int frames = 0;
            for (Future<Integer> f : sent) {
                frames += f.get(60, TimeUnit.SECONDS);
            }
            return frames;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Sends a few fuzzed frames on one connection. If every frame's size matches its bytes, a valid
     * ApiVersions probe follows and must be answered unless the broker closed the connection;
     * otherwise the client half-closes and the broker must close too. Either way within the timeout.
     */
    private static int connection(int index, Random random, List<byte[]> seeds) throws IOException {
        List<FrameMutations.Frame> frames = new ArrayList<>();
        int count = 1 + random.nextInt(MAX_FRAMES_PER_CONNECTION);
        boolean wellFramed = true;
        boolean fetchSent = false;
        for (int i = 0; i < count; i++) {
            FrameMutations.Frame frame = FrameMutations.mutate(random, seeds, MAX_REQUEST);
            frames.add(frame);
            wellFramed &= frame.wellFramed();
            fetchSent |= frame.bytes().length >= 6 && ByteBuffer.wrap(frame.bytes()).getShort(4) == ApiKey.FETCH.id();
        }
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), CLUSTER.broker(0).boundPort())) {
            socket.setSoTimeout(READ_TIMEOUT_MS);
            if (!write(socket, frames, wellFramed)) {
                return count; // the broker closed the connection while we wrote: an answer too
            }
            if (!wellFramed) {
                socket.shutdownOutput();
            }
            awaitProbeOrClose(socket, index, wellFramed, fetchSent);
        }
        return count;
    }

    private static boolean write(Socket socket, List<FrameMutations.Frame> frames, boolean withProbe) {
        try {
            OutputStream out = socket.getOutputStream();
            for (FrameMutations.Frame frame : frames) {
                out.write(frame.bytes());
            }
            if (withProbe) {
                RequestHeader header = new RequestHeader(ApiKey.API_VERSIONS, (short) 3, PROBE_CORRELATION_ID, "probe");
                out.write(bytes(Frames.request(header, new ApiVersionsRequest("probe", "1"))));
            }
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void awaitProbeOrClose(Socket socket, int index, boolean probe, boolean fetchSent) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            while (true) {
                int size = in.readInt();
                assertTrue("response size " + size, size >= 4 && size <= 16 * 1024 * 1024);
                byte[] payload = new byte[size];
                in.readFully(payload);
                if (probe && ByteBuffer.wrap(payload).getInt() == PROBE_CORRELATION_ID) {
                    return;
                }
            }
        } catch (EOFException | SocketException e) {
            return; // closed by the broker
        } catch (SocketTimeoutException e) {
            if (fetchSent) {
                return; // a fetch with a mutated max_wait_ms may legitimately be waiting
            }
            fail("Connection " + index + ": neither answered nor closed within " + READ_TIMEOUT_MS + " ms");
        }
    }

    // ---- afterwards ---------------------------------------------------------------------------

    /** Every request has completed, except fetches parked in the purgatory until their max_wait_ms. */
    private static void assertNoStuckRequests() {
        Broker broker = CLUSTER.broker(0);
        MetricGroup network = broker.metrics().group("socket-server-metrics");
        Conditions.waitUntil(() -> (Long) network.value("requests-in-flight") == broker.purgatory().size(), 20_000,
            "no request is in flight but the waiting fetches (" + broker.purgatory().size() + ")");
    }

    private static List<String> networkThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(name -> name.startsWith(NETWORK_THREAD)).sorted().toList();
    }

    /** Whatever the fuzz got appended is made of valid batches Kafka's consumer can read. */
    private static void assertFuzzedTopicIsReadable() {
        for (int p = 0; p < 2; p++) {
            long end = CLUSTER.broker(0).logManager().getLog(TOPIC, p).orElseThrow().logEndOffset();
            TopicPartition tp = new TopicPartition(TOPIC, p);
            try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
                consumer.assign(List.of(tp));
                consumer.seek(tp, 0);
                long deadline = System.currentTimeMillis() + 30_000;
                while (consumer.position(tp) < end && System.currentTimeMillis() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(java.time.Duration.ofMillis(200))) {
                        assertTrue(r.offset() < end);
                    }
                }
                assertEquals("read " + tp + " to its end", end, consumer.position(tp));
            }
        }
        LOG.info("The fuzzed topic holds {} records, all readable",
            CLUSTER.broker(0).logManager().getLog(TOPIC, 0).orElseThrow().logEndOffset());
    }

    private static void assertRoundTripWorks() throws Exception {
        CLUSTER.createTopic("after-fuzz", 2, Map.of());
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        Map<Integer, List<Records>> sent = new TreeMap<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (int n = 0; n < 200; n++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>("after-fuzz", n % 2, 1_000L + n,
                    ("k" + n).getBytes(StandardCharsets.UTF_8), ("v" + n).getBytes(StandardCharsets.UTF_8));
                sent.computeIfAbsent(n % 2, k -> new ArrayList<>()).add(Records.of(record));
                producer.send(record);
            }
            producer.flush();
        }
        KafkaClientsTest.assertSameRecords(sent, Records.readAll(CLUSTER.clientProps(), "after-fuzz", 2, 200));
    }

    private static KafkaConsumer<byte[], byte[]> consumer() {
        Properties props = CLUSTER.clientProps();
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("enable.auto.commit", "false");
        return new KafkaConsumer<>(props);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
