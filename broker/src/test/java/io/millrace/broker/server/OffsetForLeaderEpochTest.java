package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.log.Log;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderPartition;
import io.millrace.common.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderTopic;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse;
import io.millrace.common.protocol.message.OffsetForLeaderEpochResponse.EpochEndOffset;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * OffsetForLeaderEpoch over the raw protocol, at every version served: Millrace partitions have the
 * one leader epoch -1 that Metadata reports, whose end offset is the log end offset.
 */
public class OffsetForLeaderEpochTest {

    private static final String TOPIC = "epochs";
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @BeforeClass
    public static void sevenRecordsInPartitionZero() throws Exception {
        CLUSTER.createTopic(TOPIC, 2, Map.of());
        Log log = CLUSTER.broker(0).logManager().getLog(TOPIC, 0).orElseThrow();
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 512);
        for (int i = 0; i < 7; i++) {
            builder.append(System.currentTimeMillis(), null, ("v" + i).getBytes());
        }
        log.append(builder.build());
    }

    private static EpochEndOffset ask(short version, String topic, int partition, int currentEpoch, int epoch) throws Exception {
        OffsetForLeaderEpochRequest request = new OffsetForLeaderEpochRequest(OffsetForLeaderEpochRequest.CONSUMER_REPLICA_ID,
            List.of(new OffsetForLeaderTopic(topic, List.of(new OffsetForLeaderPartition(partition, currentEpoch, epoch)))));
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            OffsetForLeaderEpochResponse response = client.call(request, version);
            assertEquals(topic, response.topics().get(0).topic());
            EpochEndOffset result = response.topics().get(0).partitions().get(0);
            assertEquals(partition, result.partition());
            return result;
        }
    }

    private static void forEveryVersion(VersionCheck check) throws Exception {
        for (short v = ApiKey.OFFSET_FOR_LEADER_EPOCH.minVersion(); v <= ApiKey.OFFSET_FOR_LEADER_EPOCH.maxVersion(); v++) {
            check.run(v);
        }
    }

    private interface VersionCheck {
        void run(short version) throws Exception;
    }

    @Test
    public void metadataReportsNoLeaderEpoch() throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            MetadataResponse response = client.call(new MetadataRequest(List.of(MetadataRequest.Topic.named(TOPIC)), false,
                false, false), ApiKey.METADATA.maxVersion());
            for (MetadataResponse.Partition partition : response.topics().get(0).partitions()) {
                assertEquals(OffsetForLeaderEpochHandler.LEADER_EPOCH, partition.leaderEpoch());
            }
        }
    }

    @Test
    public void theCurrentEpochEndsAtTheLogEndOffset() throws Exception {
        forEveryVersion(v -> {
            assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, -1, 7L), ask(v, TOPIC, 0, -1, -1));
            assertEquals("an empty partition", new EpochEndOffset(Errors.NONE.code(), 1, -1, 0L), ask(v, TOPIC, 1, -1, -1));
        });
    }

    @Test
    public void anEpochThePartitionNeverHadIsUndefined() throws Exception {
        forEveryVersion(v -> assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, -1, -1L), ask(v, TOPIC, 0, -1, 4)));
    }

    @Test
    public void aCurrentEpochOtherThanNoneIsFencedOrUnknown() throws Exception {
        forEveryVersion(v -> {
            assertEquals(Errors.UNKNOWN_LEADER_EPOCH, ask(v, TOPIC, 0, 0, -1).error());
            assertEquals(Errors.FENCED_LEADER_EPOCH, ask(v, TOPIC, 0, -5, -1).error());
        });
    }

    @Test
    public void unknownPartitionsAreAnsweredWithAnError() throws Exception {
        forEveryVersion(v -> {
            assertEquals(EpochEndOffset.error(9, Errors.UNKNOWN_TOPIC_OR_PARTITION), ask(v, TOPIC, 9, -1, -1));
            assertEquals(EpochEndOffset.error(0, Errors.UNKNOWN_TOPIC_OR_PARTITION), ask(v, "no-such-topic", 0, -1, -1));
        });
    }
}
