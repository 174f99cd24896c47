package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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
    private final TwoDirectoryBroker disks = new TwoDirectoryBroker(temp, zookeeper);

    @Rule
    public final TestRule rules = RuleChain.outerRule(temp).around(zookeeper).around(disks);

    private Broker broker;
    private Path dirA;

    @Before
    public void setUp() {
        broker = disks.broker();
        dirA = disks.dirA();
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

        disks.failDiskA();
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
