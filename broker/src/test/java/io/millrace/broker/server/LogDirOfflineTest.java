package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileOpener;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.utils.Time;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.FaultyFileChannel;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;

/**
 * A broker with two log directories whose first one starts failing: Produce to a partition there
 * is answered with KAFKA_STORAGE_ERROR, while the partition in the other directory keeps taking
 * produce and fetch requests and the broker keeps answering.
 */
public class LogDirOfflineTest {

    private static final short PRODUCE_V = 9;
    private static final short FETCH_V = 12;
    private static final short METADATA_V = 12;

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final TemporaryFolder temp = new TemporaryFolder();
    private final FaultyFileChannel.Switch diskA = new FaultyFileChannel.Switch();

    @Rule
    public final TestRule rules = RuleChain.outerRule(temp).around(zookeeper);

    private Path dirA;
    private Path dirB;
    private Broker broker;

    @Before
    public void setUp() throws Exception {
        dirA = temp.newFolder("disk-a").toPath().toAbsolutePath();
        dirB = temp.newFolder("disk-b").toPath().toAbsolutePath();
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, 0);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString());
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:0");
        props.put(LogConfig.LOG_DIRS_CONFIG, dirA + "," + dirB);
        props.put(BrokerConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, 5_000L);
        LogFileOpener opener = (path, options) -> {
            FileChannel channel = FileChannel.open(path, options);
            return path.toAbsolutePath().startsWith(dirA) ? new FaultyFileChannel(channel, diskA) : channel;
        };
        broker = new Broker(new BrokerConfig(props), Time.SYSTEM, opener);
        broker.startup();
    }

    @After
    public void tearDown() {
        broker.shutdown();
    }

    @Test
    public void produceToAPartitionOfAFailedDirectoryGetsKafkaStorageErrorAndTheOtherDirectoryKeepsServing()
        throws Exception {
        broker.cluster().createTopic("split", 2, Map.of()).get(30, TimeUnit.SECONDS);
        Conditions.waitUntil(() -> broker.logManager().getLog("split", 0).isPresent()
            && broker.logManager().getLog("split", 1).isPresent(), "both logs to open");
        Path dir0 = broker.logManager().getLog("split", 0).orElseThrow().logDir();
        Path dir1 = broker.logManager().getLog("split", 1).orElseThrow().logDir();
        assertNotEquals("the two partitions are spread over both directories", dir0, dir1);
        int onA = dir0.equals(dirA) ? 0 : 1;
        int onB = 1 - onA;
        assertEquals(Errors.NONE, produce("split", onA, batch("before the failure")));
        assertEquals(Errors.NONE, produce("split", onB, batch("b0")));

        diskA.fail();
        assertEquals(Errors.KAFKA_STORAGE_ERROR, produce("split", onA, batch("lost")));
        assertEquals(Errors.KAFKA_STORAGE_ERROR, produce("split", onA, batch("still offline")));
        assertEquals(Set.of(dirA), broker.logManager().failureChannel().offlineDirs());
        assertEquals(Errors.KAFKA_STORAGE_ERROR, fetch("split", onA).error());

        assertEquals(Errors.NONE, produce("split", onB, batch("b1")));
        FetchResponse.PartitionData fromB = fetch("split", onB);
        assertEquals(Errors.NONE, fromB.error());
        assertEquals(2L, fromB.highWatermark());
        assertTrue(fromB.records().sizeInBytes() > 0);

        try (RawClient client = new RawClient(broker.boundPort())) {
            MetadataResponse metadata = client.call(new MetadataRequest(List.of(MetadataRequest.Topic.named("split")),
                false, false, false), METADATA_V);
            assertEquals(Errors.NONE, metadata.topics().get(0).error());
        }
    }

    private Errors produce(String topic, int partition, ByteBuffer records) throws Exception {
        try (RawClient client = new RawClient(broker.boundPort())) {
            ProduceRequest request = new ProduceRequest(null, (short) 1, 10_000, List.of(
                new ProduceRequest.TopicData(topic, List.of(new ProduceRequest.PartitionData(partition, records)))));
            ProduceResponse response = client.call(request, PRODUCE_V);
            return response.responses().get(0).partitionResponses().get(0).error();
        }
    }

    private FetchResponse.PartitionData fetch(String topic, int partition) throws Exception {
        try (RawClient client = new RawClient(broker.boundPort())) {
            FetchResponse response = client.call(new FetchRequest(-1, 0, 1, 1 << 20, (byte) 0, 0, -1,
                List.of(new FetchRequest.FetchTopic(topic, List.of(FetchRequest.FetchPartition.of(partition, 0, 1 << 20)))),
                List.of(), ""), FETCH_V);
            return response.responses().get(0).partitions().get(0);
        }
    }

    private static ByteBuffer batch(String value) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 256);
        builder.append(1_000L, null, value.getBytes(StandardCharsets.UTF_8));
        return builder.build();
    }
}
