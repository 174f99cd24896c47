package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Produce requests pipelined on one connection are answered in request order with their own
 * offsets and errors, whether the network thread that read them appended them or a request thread
 * did (a refusal, an fsync per message, acks=all on a replicated partition).
 */
public class ProducePipelineTest {

    private static final short PRODUCE_V = 9;
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    /** One pipelined request and what its answer must be; {@code atOnce} if the network thread appends it. */
    private record Step(String topic, int partition, short acks, ByteBuffer records, Errors error, long baseOffset,
                        boolean atOnce) {
    }

    @Test
    public void pipelinedProducesAreAnsweredInOrderWithTheirOffsetsOnEitherPath() throws Exception {
        CLUSTER.createTopic("quick", 2, Map.of());
        CLUSTER.createTopic("durable", 2, Map.of("flush.messages", "1"));
        CLUSTER.broker(0).cluster().createTopic("copied", 2, 2, Map.of(), Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        CLUSTER.awaitLogs("copied", 2);
        int broker = CLUSTER.leader("quick", 0);
        int durable = CLUSTER.partitionLedBy("durable", broker, true);
        int copied = CLUSTER.partitionLedBy("copied", broker, true);
        int elsewhere = CLUSTER.partitionLedBy("quick", broker, false);
        List<Step> steps = List.of(
            new Step("quick", 0, (short) 1, batch(5), Errors.NONE, 0, true),
            new Step("copied", copied, (short) -1, batch(3), Errors.NONE, 0, false),
            new Step("quick", 0, (short) 1, batch(2), Errors.NONE, 5, true),
            new Step("quick", elsewhere, (short) 1, batch(1), Errors.NOT_LEADER_OR_FOLLOWER, -1, false),
            new Step("durable", durable, (short) 1, batch(4), Errors.NONE, 0, false),
            new Step("quick", 0, (short) 1, corrupt(batch(6)), Errors.CORRUPT_MESSAGE, -1, true),
            new Step("quick", 0, (short) -1, batch(3), Errors.NONE, 7, true),
            new Step("copied", copied, (short) 1, batch(1), Errors.NONE, 3, true));

        long before = CLUSTER.requestsOnNetworkThread(broker);
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            List<Integer> correlationIds = new ArrayList<>();
            for (Step step : steps) {
                correlationIds.add(client.send(request(step), PRODUCE_V));
            }
            for (int i = 0; i < steps.size(); i++) {
                ProduceResponse response = (ProduceResponse) client.receive(ApiKey.PRODUCE, PRODUCE_V, correlationIds.get(i));
                PartitionResponse answer = response.responses().get(0).partitionResponses().get(0);
                Step step = steps.get(i);
                assertEquals("request " + i + " to " + step.topic(), step.error(), answer.error());
                assertEquals("request " + i + " to " + step.topic(), step.baseOffset(), answer.baseOffset());
            }
        }
        long atOnce = steps.stream().filter(Step::atOnce).count();
        assertEquals(atOnce, CLUSTER.requestsOnNetworkThread(broker) - before);
        assertEquals(10, CLUSTER.broker(broker).logManager().getLog("quick", 0).orElseThrow().logEndOffset());
    }

    private static ProduceRequest request(Step step) {
        return new ProduceRequest(null, step.acks(), 30_000, List.of(new ProduceRequest.TopicData(step.topic(),
            List.of(new ProduceRequest.PartitionData(step.partition(), step.records())))));
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L + i, null, ("value-" + i).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** The batch with its last byte flipped, so its CRC no longer matches. */
    private static ByteBuffer corrupt(ByteBuffer batch) {
        batch.put(batch.limit() - 1, (byte) (batch.get(batch.limit() - 1) ^ 0xff));
        return batch;
    }
}
