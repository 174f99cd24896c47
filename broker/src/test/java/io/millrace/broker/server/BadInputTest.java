package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.message.ApiVersionsRequest;
import io.millrace.common.protocol.message.ApiVersionsResponse;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.ClassRule;
import org.slf4j.LoggerFactory;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/** Requests no well-behaved client sends, over a raw socket: each hurts only itself. */
public class BadInputTest {

    private static final int MAX_REQUEST = 64 * 1024;
    private static final int MAX_BATCH = 4096;
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, MAX_REQUEST,
        LogConfig.MESSAGE_MAX_BYTES_CONFIG, MAX_BATCH,
        BrokerConfig.AUTO_CREATE_TOPICS_ENABLE_CONFIG, false));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final short PRODUCE_V = 9;
    private static final short FETCH_V = 12;

    @Test
    public void anOversizedFrameClosesOnlyItsOwnConnection() throws Exception {
        try (RawClient bystander = client(); RawClient offender = client()) {
            offender.sendRaw(ByteBuffer.allocate(8).putInt(MAX_REQUEST + 1).putInt(0).flip());
            assertTrue(offender.closedByBroker());
            assertApiVersionsWorks(bystander);
        }
    }

    @Test
    public void aMalformedRequestClosesItsConnectionAndNoOther() throws Exception {
        try (RawClient bystander = client(); RawClient offender = client()) {
            RequestHeader header = new RequestHeader(ApiKey.PRODUCE, PRODUCE_V, 1, "bad");
            ByteBuffer frame = ByteBuffer.allocate(4 + header.sizeInBytes() + 3);
            frame.putInt(header.sizeInBytes() + 3);
            header.writeTo(frame);
            frame.put(new byte[] {1, 2, 3}).flip();
            offender.sendRaw(frame);
            assertTrue(offender.closedByBroker());
            assertApiVersionsWorks(bystander);
        }
    }

    @Test
    public void anUnsupportedApiVersionsVersionGetsTheSupportedRangesAtVersionZero() throws Exception {
        try (RawClient client = client()) {
            client.send(ApiKey.API_VERSIONS.id(), (short) 99, new byte[] {0, 0, 0});
            ApiVersionsResponse response = (ApiVersionsResponse) client.receive(ApiKey.API_VERSIONS, (short) 0);
            assertEquals(Errors.UNSUPPORTED_VERSION, response.error());
            assertEquals(Arrays.stream(ApiKey.values()).filter(ApiKey::advertised).count(), response.apiKeys().size());
        }
    }

    @Test
    public void anUnknownApiKeyOrUnsupportedVersionClosesTheConnection() throws Exception {
        try (RawClient unknown = client(); RawClient tooOld = client(); RawClient notServed = client()) {
            unknown.send((short) 17, (short) 1, new byte[] {0, 0});
            tooOld.send(ApiKey.PRODUCE.id(), (short) 2, new byte[] {0, 0});
            // an API the codecs parse but the broker does not advertise yet, while there is one
            ApiKey unserved = Arrays.stream(ApiKey.values()).filter(a -> !a.advertised()).findFirst().orElse(null);
            if (unserved != null) {
                notServed.send(unserved.id(), unserved.minVersion(), new byte[0]);
            }
            assertTrue(unknown.closedByBroker());
            assertTrue(tooOld.closedByBroker());
            assertTrue(unserved == null || notServed.closedByBroker());
        }
    }

    @Test
    public void aCorruptBatchIsRefusedWithCorruptMessageAndNothingIsAppended() throws Exception {
        CLUSTER.createTopic("corrupt", 1, Map.of());
        ByteBuffer batch = batch(10);
        batch.put(batch.limit() - 1, (byte) (batch.get(batch.limit() - 1) ^ 0xff));
        assertEquals(Errors.CORRUPT_MESSAGE, produce("corrupt", batch));
        assertEquals(0, CLUSTER.broker(0).logManager().getLog("corrupt", 0).orElseThrow().logEndOffset());
    }

    @Test
    public void aBatchOverMessageMaxBytesIsRefusedWithMessageTooLarge() throws Exception {
        CLUSTER.createTopic("large", 1, Map.of());
        assertEquals(Errors.MESSAGE_TOO_LARGE, produce("large", batch(MAX_BATCH / 10)));
        assertEquals(0, CLUSTER.broker(0).logManager().getLog("large", 0).orElseThrow().logEndOffset());
    }

    @Test
    public void anAppendLargerThanTheTopicsSegmentIsRefusedWithRecordListTooLarge() throws Exception {
        CLUSTER.createTopic("small-segments", 1, Map.of("segment.bytes", "1024"));
        ByteBuffer batch = batch(100);
        assertTrue(batch.remaining() > 1024);
        assertEquals(Errors.RECORD_LIST_TOO_LARGE, produce("small-segments", batch));
        assertEquals(0, CLUSTER.broker(0).logManager().getLog("small-segments", 0).orElseThrow().logEndOffset());
        assertEquals(Errors.NONE, produce("small-segments", batch(5)));
    }

    @Test
    public void anUnknownTopicIsRefusedWhenAutoCreationIsOff() throws Exception {
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, produce("no-such-topic", batch(1)));
    }

    @Test
    public void aFetchBeyondTheLogEndIsOffsetOutOfRange() throws Exception {
        CLUSTER.createTopic("range", 1, Map.of());
        assertEquals(Errors.NONE, produce("range", batch(5)));
        try (RawClient client = client()) {
            FetchResponse response = client.call(fetch("range", 42, 0), FETCH_V);
            assertEquals(Errors.OFFSET_OUT_OF_RANGE, response.responses().get(0).partitions().get(0).error());
        }
    }

    @Test
    public void aWaitingFetchIsAnsweredAsSoonAsAProduceArrives() throws Exception {
        CLUSTER.createTopic("long-poll", 1, Map.of());
        try (RawClient fetcher = client()) {
            fetcher.send(fetch("long-poll", 0, 500), FETCH_V);
            // The fetch is parked once the purgatory holds it; then append and time the answer.
            io.millrace.testkit.Conditions.waitUntil(() -> waitingFetches() == 1, "the fetch to wait");
            long start = System.nanoTime();
            assertEquals(Errors.NONE, produce("long-poll", batch(3)));
            FetchResponse response = (FetchResponse) fetcher.receive(ApiKey.FETCH, FETCH_V);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            FetchResponse.PartitionData data = response.responses().get(0).partitions().get(0);
            assertEquals(Errors.NONE, data.error());
            assertEquals(3, data.highWatermark());
            assertTrue("records returned", data.records().sizeInBytes() > 0);
            LoggerFactory.getLogger(BadInputTest.class).info("Long poll answered {} ms after the produce was sent", elapsedMs);
            assertTrue("answered " + elapsedMs + " ms after the produce", elapsedMs < 250);
        }
    }

    @Test
    public void aFetchNamingNoPartitionIsAnsweredAtOnceWhateverItsMaxWait() throws Exception {
        CLUSTER.createTopic("no-partitions-asked", 1, Map.of());
        try (RawClient client = client()) {
            // Nothing to watch: parked, it would hold its connection for the whole max_wait_ms.
            FetchRequest request = new FetchRequest(-1, Integer.MAX_VALUE, 1, 1024 * 1024, (byte) 0, 0, -1,
                List.of(new FetchRequest.FetchTopic("no-partitions-asked", List.of())), List.of(), "");
            client.send(request, FETCH_V);
            FetchResponse response = (FetchResponse) client.receive(ApiKey.FETCH, FETCH_V);
            assertEquals(Errors.NONE.code(), response.errorCode());
            assertEquals(List.of(), response.responses().get(0).partitions());
        }
    }

    private static int waitingFetches() {
        return CLUSTER.broker(0).purgatory().size();
    }

    private static void assertApiVersionsWorks(RawClient client) throws Exception {
        ApiVersionsResponse response = client.call(new ApiVersionsRequest("raw", "1"), (short) 3);
        assertEquals(Errors.NONE, response.error());
    }

    private static RawClient client() throws Exception {
        return new RawClient(CLUSTER.broker(0).boundPort());
    }

    private static Errors produce(String topic, ByteBuffer records) throws Exception {
        try (RawClient client = client()) {
            ProduceRequest request = new ProduceRequest(null, (short) 1, 10_000, List.of(
                new ProduceRequest.TopicData(topic, List.of(new ProduceRequest.PartitionData(0, records)))));
            ProduceResponse response = client.call(request, PRODUCE_V);
            return response.responses().get(0).partitionResponses().get(0).error();
        }
    }

    private static FetchRequest fetch(String topic, long offset, int maxWaitMs) {
        return new FetchRequest(-1, maxWaitMs, 1, 1024 * 1024, (byte) 0, 0, -1, List.of(
            new FetchRequest.FetchTopic(topic, List.of(FetchRequest.FetchPartition.of(0, offset, 1024 * 1024)))),
            List.of(), "");
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        for (int i = 0; i < records; i++) {
            builder.append(1_000L + i, ("k" + i).getBytes(StandardCharsets.UTF_8), "value-0123456789".getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }
}
