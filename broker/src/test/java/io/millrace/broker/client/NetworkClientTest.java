package io.millrace.broker.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The shared client connection against a real broker, and against sockets that misbehave. */
public class NetworkClientTest {

    private static LocalCluster cluster;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        cluster.createTopic("events", 2);
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Node broker() {
        return new Node(-1, cluster.host(), cluster.brokerPort());
    }

    private static NetworkClient client(int requestTimeoutMs) {
        return new NetworkClient(NetworkClient.Options.defaults("test").withRequestTimeoutMs(requestTimeoutMs));
    }

    @Test
    public void metadataRequestIsAnswered() throws Exception {
        try (NetworkClient client = client(10_000)) {
            MetadataResponse response = client.<MetadataResponse>send(broker(),
                new MetadataRequest(List.of(MetadataRequest.Topic.named("events")), false, false, false)).get(10, TimeUnit.SECONDS);
            assertEquals(1, response.brokers().size());
            assertEquals(Errors.NONE, response.topics().get(0).error());
            assertEquals(2, response.topics().get(0).partitions().size());
        }
    }

    @Test
    public void manyConcurrentRequestsEachGetTheirOwnAnswer() throws Exception {
        try (NetworkClient client = client(10_000)) {
            List<CompletableFuture<ProduceResponse>> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                answers.add(client.send(broker(), produce("events", i % 2, "value-" + i)));
            }
            long[] nextOffset = {-1, -1};
            for (int i = 0; i < answers.size(); i++) {
                ProduceResponse.PartitionResponse p = answers.get(i).get(10, TimeUnit.SECONDS)
                    .responses().get(0).partitionResponses().get(0);
                assertEquals(i % 2, p.index());
                assertEquals(Errors.NONE.code(), p.errorCode());
                if (nextOffset[i % 2] >= 0) {
                    assertEquals("requests on one connection are answered in order", nextOffset[i % 2], p.baseOffset());
                }
                nextOffset[i % 2] = p.baseOffset() + 1;
            }
            assertEquals(0, client.inFlightRequests(broker()));
        }
    }

    @Test
    public void produceWithoutResponseCompletesOnceWritten() throws Exception {
        try (NetworkClient client = client(10_000)) {
            ProduceRequest noAcks = new ProduceRequest(null, (short) 0, 1_000,
                produce("events", 0, "fire-and-forget").topicData());
            client.sendNoResponse(broker(), noAcks).get(10, TimeUnit.SECONDS);
            // the connection stays usable: the next request's answer is not confused with anything
            MetadataResponse response = client.<MetadataResponse>send(broker(),
                new MetadataRequest(List.of(), false, false, false)).get(10, TimeUnit.SECONDS);
            assertEquals(1, response.brokers().size());
        }
    }

    @Test
    public void unreachableBrokerFailsWithNetworkException() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (NetworkClient client = client(10_000)) {
            CompletableFuture<MetadataResponse> answer = client.send(new Node(7, "127.0.0.1", port),
                new MetadataRequest(List.of(), false, false, false));
            assertFailsWith(answer, NetworkException.class);
        }
    }

    @Test
    public void silentBrokerTimesOutAndLaterRequestsStillWork() throws Exception {
        try (ServerSocket silent = new ServerSocket(0); NetworkClient client = client(300)) {
            Thread acceptor = acceptAndIgnore(silent);
            long start = System.nanoTime();
            CompletableFuture<MetadataResponse> answer = client.send(new Node(9, "127.0.0.1", silent.getLocalPort()),
                new MetadataRequest(List.of(), false, false, false));
            Throwable cause = assertFailsWith(answer, NetworkException.class);
            assertTrue("the version negotiation timed out: " + cause, cause.getMessage().contains("ApiVersions"));
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 250);
            acceptor.interrupt();
            // another broker on the same client is unaffected
            assertNotNull(client.<MetadataResponse>send(broker(), new MetadataRequest(List.of(), false, false, false))
                .get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    public void requestTimeoutFailsWithTimeoutException() throws Exception {
        try (NetworkClient client = client(10_000)) {
            // a Metadata round trip first, so the connection is negotiated
            client.send(broker(), new MetadataRequest(List.of(), false, false, false)).get(10, TimeUnit.SECONDS);
            // a produce with acks=1 waits for nothing, so give the request a timeout too short to be met
            CompletableFuture<ProduceResponse> answer = client.send(broker(), produce("events", 0, "x"), 0);
            try {
                answer.get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof TimeoutException
                    || e.getCause() instanceof NetworkException);
            }
        }
    }

    @Test
    public void disconnectFailsInFlightAndTheNextRequestReconnects() throws Exception {
        try (NetworkClient client = client(10_000)) {
            client.send(broker(), new MetadataRequest(List.of(), false, false, false)).get(10, TimeUnit.SECONDS);
            client.disconnect(broker());
            MetadataResponse again = client.<MetadataResponse>send(broker(),
                new MetadataRequest(List.of(), false, false, false)).get(10, TimeUnit.SECONDS);
            assertEquals(1, again.brokers().size());
        }
    }

    @Test
    public void sendAfterCloseIsRefused() {
        NetworkClient client = client(1_000);
        client.close();
        try {
            client.send(broker(), new MetadataRequest(List.of(), false, false, false));
            fail("a closed client must refuse requests");
        } catch (IllegalStateException expected) {
            assertTrue(expected.getMessage().contains("closed"));
        }
    }

    static ProduceRequest produce(String topic, int partition, String value) {
        ByteBuffer batch = RecordBatchBuilder.create(CompressionType.NONE, 0, 64)
            .append(System.currentTimeMillis(), null, value.getBytes(StandardCharsets.UTF_8)).build();
        return new ProduceRequest(null, (short) 1, 5_000, List.of(new ProduceRequest.TopicData(topic,
            List.of(new ProduceRequest.PartitionData(partition, batch)))));
    }

    private static Thread acceptAndIgnore(ServerSocket server) {
        Thread thread = new Thread(() -> {
            List<Socket> held = new ArrayList<>();
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    held.add(server.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        }, "silent-broker");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static Throwable assertFailsWith(CompletableFuture<?> future, Class<? extends Throwable> type) throws Exception {
        try {
            future.get(15, TimeUnit.SECONDS);
            fail("expected " + type.getSimpleName());
            return null;
        } catch (ExecutionException e) {
            assertTrue("expected " + type.getSimpleName() + ", got " + e.getCause(), type.isInstance(e.getCause()));
            return e.getCause();
        }
    }
}
