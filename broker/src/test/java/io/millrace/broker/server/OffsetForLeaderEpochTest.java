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
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * OffsetForLeaderEpoch over the raw protocol, at every version served: a new partition is in leader
 * epoch 0, which Metadata reports, and whose end offset is the log end offset; a log with a history
 * of epochs answers from its leader epoch cache as Kafka does.
 */
public class OffsetForLeaderEpochTest {

    private static final String TOPIC = "epochs";
    /** Offsets 0-2 in epoch 0, 3-6 in epoch 2. */
    private static final String HISTORY = "epoch-history";
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
        CLUSTER.createTopic(HISTORY, 1, Map.of());
        Log history = CLUSTER.broker(0).logManager().getLog(HISTORY, 0).orElseThrow();
        history.appendAsLeader(records(3), 0);
        history.appendAsLeader(records(2), 2);
        history.appendAsLeader(records(2), 2);
    }

    private static ByteBuffer records(int n) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 512);
        for (int i = 0; i < n; i++) {
            builder.append(System.currentTimeMillis(), null, ("h" + i).getBytes());
        }
        return builder.build();
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
    public void metadataReportsTheFirstLeaderEpoch() throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            MetadataResponse response = client.call(new MetadataRequest(List.of(MetadataRequest.Topic.named(TOPIC)), false,
                false, false), ApiKey.METADATA.maxVersion());
            for (MetadataResponse.Partition partition : response.topics().get(0).partitions()) {
                assertEquals(0, partition.leaderEpoch());
            }
        }
    }

    @Test
    public void theCurrentEpochEndsAtTheLogEndOffset() throws Exception {
        forEveryVersion(v -> {
            assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, 0, 7L), ask(v, TOPIC, 0, -1, 0));
            assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, 0, 7L), ask(v, TOPIC, 0, 0, 0));
            assertEquals("an empty partition", new EpochEndOffset(Errors.NONE.code(), 1, 0, 0L), ask(v, TOPIC, 1, -1, 0));
        });
    }

    @Test
    public void anEpochThePartitionNeverHadIsUndefined() throws Exception {
        forEveryVersion(v -> assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, -1, -1L), ask(v, TOPIC, 0, -1, 4)));
    }

    @Test
    public void aCurrentEpochOtherThanThePartitionsIsFencedOrUnknown() throws Exception {
        forEveryVersion(v -> {
            assertEquals(Errors.UNKNOWN_LEADER_EPOCH, ask(v, TOPIC, 0, 1, -1).error());
            assertEquals(Errors.FENCED_LEADER_EPOCH, ask(v, TOPIC, 0, -5, -1).error());
        });
    }

    @Test
    public void anEpochOfTheHistoryEndsWhereTheNextBegins() throws Exception {
        forEveryVersion(v -> {
            assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, 2, 7L), ask(v, HISTORY, 0, -1, 2));
            assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, 2, 7L), ask(v, HISTORY, 0, 2, 2));
            assertEquals(new EpochEndOffset(Errors.NONE.code(), 0, 0, 3L), ask(v, HISTORY, 0, 2, 0));
            assertEquals("an epoch between: the one before it", new EpochEndOffset(Errors.NONE.code(), 0, 0, 3L),
                ask(v, HISTORY, 0, -1, 1));
            assertEquals("above the latest", new EpochEndOffset(Errors.NONE.code(), 0, -1, -1L), ask(v, HISTORY, 0, -1, 3));
            assertEquals("no epoch", new EpochEndOffset(Errors.NONE.code(), 0, -1, -1L), ask(v, HISTORY, 0, -1, -1));
            assertEquals(Errors.UNKNOWN_LEADER_EPOCH, ask(v, HISTORY, 0, 3, 2).error());
            assertEquals("the log is in epoch 2", Errors.FENCED_LEADER_EPOCH, ask(v, HISTORY, 0, 0, 0).error());
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
