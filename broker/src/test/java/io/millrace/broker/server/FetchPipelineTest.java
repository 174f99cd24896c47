package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
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
 * Fetches pipelined on one connection are answered in request order, whether the network thread
 * that read them answered them (a consumer's fetch that finds records in partitions with one
 * replica led here) or a request thread did (a fetch that waits, a replicated partition, one led
 * elsewhere, a follower's fetch).
 */
public class FetchPipelineTest {

    private static final short FETCH_V = 12;
    private static final short PRODUCE_V = 9;
    private static final int CONSUMER = -1;
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    /** One pipelined fetch and what its answer must be; {@code atOnce} if the network thread answers it. */
    private record Step(String label, FetchRequest request, Errors error, boolean records, boolean atOnce) {
    }

    @Test
    public void pipelinedFetchesAreAnsweredInOrderOnEitherPath() throws Exception {
        CLUSTER.createTopic("quick", 2, Map.of());
        CLUSTER.broker(0).cluster().createTopic("copied", 2, 2, Map.of(), Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        CLUSTER.awaitLogs("copied", 2);
        int broker = CLUSTER.leader("quick", 0);
        int elsewhere = CLUSTER.partitionLedBy("quick", broker, false);
        int copied = CLUSTER.partitionLedBy("copied", broker, true);
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            produce(client, "quick", 0, 10);
            produce(client, "copied", copied, 10);
            List<Step> steps = List.of(
                new Step("records from the start", fetch(CONSUMER, "quick", 0, 0, 1, 500), Errors.NONE, true, true),
                new Step("at the log end, waiting", fetch(CONSUMER, "quick", 0, 10, 1, 200), Errors.NONE, false, false),
                new Step("records from the middle", fetch(CONSUMER, "quick", 0, 5, 1, 500), Errors.NONE, true, true),
                new Step("at the log end, no wait", fetch(CONSUMER, "quick", 0, 10, 1, 0), Errors.NONE, false, true),
                new Step("more bytes than there are", fetch(CONSUMER, "quick", 0, 0, 1_000_000, 200), Errors.NONE, true, false),
                new Step("a replicated partition", fetch(CONSUMER, "copied", copied, 0, 1, 500), Errors.NONE, true, false),
                new Step("a partition led elsewhere", fetch(CONSUMER, "quick", elsewhere, 0, 1, 500),
                    Errors.NOT_LEADER_OR_FOLLOWER, false, false),
                new Step("a broker's fetch, as a follower's", fetch(1 - broker, "quick", 0, 0, 1, 500), Errors.NONE, true, false),
                new Step("beyond the log", fetch(CONSUMER, "quick", 0, 99, 1, 500), Errors.OFFSET_OUT_OF_RANGE, false, false),
                new Step("again from the start", fetch(CONSUMER, "quick", 0, 0, 1, 500), Errors.NONE, true, true));

            long before = CLUSTER.requestsOnNetworkThread(broker);
            List<Integer> correlationIds = new ArrayList<>();
            for (Step step : steps) {
                correlationIds.add(client.send(step.request(), FETCH_V));
            }
            for (int i = 0; i < steps.size(); i++) {
                FetchResponse response = (FetchResponse) client.receive(ApiKey.FETCH, FETCH_V, correlationIds.get(i));
                PartitionData answer = response.responses().get(0).partitions().get(0);
                Step step = steps.get(i);
                assertEquals(step.label(), step.error(), answer.error());
                boolean records = answer.records() != null && answer.records().sizeInBytes() > 0;
                assertEquals(step.label(), step.records(), records);
            }
            long atOnce = steps.stream().filter(Step::atOnce).count();
            assertEquals(atOnce, CLUSTER.requestsOnNetworkThread(broker) - before);
        }
    }

    @Test
    public void aFetchOfManyPartitionsGoesToARequestThread() throws Exception {
        CLUSTER.createTopic("wide", FetchHandler.AT_ONCE_MAX_PARTITIONS + 1, Map.of());
        int broker = 0;
        List<FetchRequest.FetchPartition> partitions = new ArrayList<>();
        for (int p = 0; p < FetchHandler.AT_ONCE_MAX_PARTITIONS + 1; p++) {
            partitions.add(FetchRequest.FetchPartition.of(p, 0, 1024));
        }
        FetchRequest wide = new FetchRequest(CONSUMER, 0, 1, 1024 * 1024, (byte) 0, 0, -1,
            List.of(new FetchRequest.FetchTopic("wide", partitions)), List.of(), "");
        try (RawClient client = new RawClient(CLUSTER.broker(broker).boundPort())) {
            long before = CLUSTER.requestsOnNetworkThread(broker);
            int id = client.send(wide, FETCH_V);
            FetchResponse response = (FetchResponse) client.receive(ApiKey.FETCH, FETCH_V, id);
            assertEquals(FetchHandler.AT_ONCE_MAX_PARTITIONS + 1, response.responses().get(0).partitions().size());
            assertEquals(0, CLUSTER.requestsOnNetworkThread(broker) - before);
        }
    }

    private static FetchRequest fetch(int replicaId, String topic, int partition, long offset, int minBytes, int maxWaitMs) {
        return new FetchRequest(replicaId, maxWaitMs, minBytes, 1024 * 1024, (byte) 0, 0, -1,
            List.of(new FetchRequest.FetchTopic(topic, List.of(FetchRequest.FetchPartition.of(partition, offset, 1024 * 1024)))),
            List.of(), "");
    }

    private static void produce(RawClient client, String topic, int partition, int records) throws Exception {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L + i, null, ("value-" + i).getBytes(StandardCharsets.UTF_8));
        }
        ByteBuffer batch = builder.build();
        // a partition's log opens a moment before its broker leads it: NOT_LEADER_OR_FOLLOWER until then
        long deadline = System.currentTimeMillis() + 30_000;
        Errors error;
        do {
            int id = client.send(new ProduceRequest(null, (short) -1, 30_000, List.of(new ProduceRequest.TopicData(topic,
                List.of(new ProduceRequest.PartitionData(partition, batch.duplicate()))))), PRODUCE_V);
            ProduceResponse response = (ProduceResponse) client.receive(ApiKey.PRODUCE, PRODUCE_V, id);
            error = response.responses().get(0).partitionResponses().get(0).error();
            if (error == Errors.NOT_LEADER_OR_FOLLOWER) {
                Thread.sleep(20);
            }
        } while (error == Errors.NOT_LEADER_OR_FOLLOWER && System.currentTimeMillis() < deadline);
        assertEquals("producing to " + topic + "-" + partition, Errors.NONE, error);
    }
}
