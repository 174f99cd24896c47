package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ClusterPaths;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogFileNames;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.InitProducerIdResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Batches of an idempotent producer sent by hand over the Kafka protocol: a retried batch is
 * answered with its original offset and stored once, a sequence gap and a fenced epoch get Kafka's
 * errors, and the producer state survives a clean restart, a crash, and the loss of its snapshots.
 */
public class IdempotentProduceWireTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final short PRODUCE_V = 9;

    private static RawClient client() throws Exception {
        return new RawClient(CLUSTER.broker(0).boundPort());
    }

    private static long producerId() throws Exception {
        try (RawClient client = client()) {
            InitProducerIdResponse response = client.call(new InitProducerIdRequest(null, 60_000, -1L, (short) -1), (short) 4);
            assertEquals(Errors.NONE.code(), response.errorCode());
            return response.producerId();
        }
    }

    private static ByteBuffer batch(long producerId, int epoch, int firstSeq, int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256)
            .producerState(producerId, (short) epoch, firstSeq, false);
        for (int i = 0; i < records; i++) {
            builder.append(System.currentTimeMillis(), null, ("record " + (firstSeq + i)).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** Sends {@code records} (a copy: the broker rewrites offsets in place) to partition 0 of {@code topic}. */
    private static PartitionResponse produce(String topic, ByteBuffer records) throws Exception {
        ByteBuffer copy = ByteBuffer.allocate(records.remaining()).put(records.duplicate()).flip();
        try (RawClient client = client()) {
            ProduceRequest request = new ProduceRequest(null, (short) -1, 10_000, List.of(
                new ProduceRequest.TopicData(topic, List.of(new ProduceRequest.PartitionData(0, copy)))));
            ProduceResponse response = client.call(request, PRODUCE_V);
            return response.responses().get(0).partitionResponses().get(0);
        }
    }

    private static void assertAnswered(Errors error, long baseOffset, PartitionResponse response) {
        assertEquals(response.toString(), error, response.error());
        assertEquals(response.toString(), baseOffset, response.baseOffset());
    }

    private static Log log(String topic) {
        return CLUSTER.broker(0).logManager().getLog(topic, 0).orElseThrow();
    }

    @Test
    public void aResentBatchIsAnsweredWithItsFirstOffsetAndStoredOnce() throws Exception {
        String topic = "idempotent-duplicate";
        CLUSTER.createTopic(topic, 1, Map.of());
        long pid = producerId();
        ByteBuffer first = batch(pid, 0, 0, 3);
        assertAnswered(Errors.NONE, 0, produce(topic, first));
        assertAnswered(Errors.NONE, 3, produce(topic, batch(pid, 0, 3, 2)));
        assertAnswered(Errors.NONE, 0, produce(topic, first));
        assertEquals("the retried batch is in the log once", 5, log(topic).logEndOffset());
        assertAnswered(Errors.NONE, 5, produce(topic, batch(pid, 0, 5, 1)));
    }

    @Test
    public void aSequenceGapIsOutOfOrderAndNothingIsAppended() throws Exception {
        String topic = "idempotent-gap";
        CLUSTER.createTopic(topic, 1, Map.of());
        long pid = producerId();
        produce(topic, batch(pid, 0, 0, 2));
        assertAnswered(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, -1, produce(topic, batch(pid, 0, 5, 1)));
        assertEquals(2, log(topic).logEndOffset());
        assertAnswered(Errors.NONE, 2, produce(topic, batch(pid, 0, 2, 1)));
    }

    @Test
    public void anOlderEpochIsFencedWithInvalidProducerEpoch() throws Exception {
        String topic = "idempotent-epoch";
        CLUSTER.createTopic(topic, 1, Map.of());
        long pid = producerId();
        assertAnswered(Errors.NONE, 0, produce(topic, batch(pid, 1, 0, 1)));
        assertAnswered(Errors.INVALID_PRODUCER_EPOCH, -1, produce(topic, batch(pid, 0, 1, 1)));
        assertAnswered(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, -1, produce(topic, batch(pid, 2, 1, 1)));
        assertAnswered(Errors.NONE, 1, produce(topic, batch(pid, 2, 0, 1)));
        assertEquals(2, log(topic).logEndOffset());
    }

    @Test
    public void duplicatesAreStillFoundAfterARestartACrashAndWithoutSnapshots() throws Exception {
        String topic = "idempotent-restart";
        CLUSTER.createTopic(topic, 1, Map.of());
        long pid = producerId();
        ByteBuffer first = batch(pid, 0, 0, 4);
        ByteBuffer second = batch(pid, 0, 4, 4);
        produce(topic, first);
        produce(topic, second);
        Path dir = log(topic).dir();

        restart(topic, false);
        assertTrue("a clean shutdown leaves a snapshot at the log end",
            Files.exists(LogFileNames.producerSnapshotFile(dir, 8)));
        assertAnswered(Errors.NONE, 4, produce(topic, second));

        ByteBuffer third = batch(pid, 0, 8, 2);
        assertAnswered(Errors.NONE, 8, produce(topic, third));
        restart(topic, true);
        assertAnswered(Errors.NONE, 8, produce(topic, third));

        CLUSTER.stop(0);
        deleteSnapshots(dir);
        CLUSTER.start(0);
        CLUSTER.awaitLogs(topic, 1);
        assertAnswered(Errors.NONE, 0, produce(topic, first));
        assertAnswered(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, -1, produce(topic, batch(pid, 0, 11, 1)));
        assertEquals("nothing was stored twice", 10, log(topic).logEndOffset());
    }

    private static void restart(String topic, boolean crash) throws Exception {
        if (crash) {
            CLUSTER.crash(0);
            awaitRegistrationGone();
        } else {
            CLUSTER.stop(0);
        }
        CLUSTER.start(0);
        CLUSTER.awaitLogs(topic, 1);
    }

    /** A crashed broker's session ends with its client; its registration goes with it, soon after. */
    private static void awaitRegistrationGone() throws Exception {
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100))) {
            zk.start();
            Conditions.waitUntil(() -> !exists(zk, ClusterPaths.broker(0)), "broker 0's registration to go");
        }
    }

    private static boolean exists(CuratorFramework zk, String path) {
        try {
            return zk.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteSnapshots(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(LogFileNames.PRODUCER_SNAPSHOT_SUFFIX)).toList()) {
                Files.delete(file);
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertFalse(files.anyMatch(f -> f.toString().endsWith(LogFileNames.PRODUCER_SNAPSHOT_SUFFIX)));
        }
    }
}
