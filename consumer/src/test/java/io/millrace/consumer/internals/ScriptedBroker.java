package io.millrace.consumer.internals;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.message.ApiVersionsResponse;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.FetchableTopicResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.types.RecordsPayload;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A one-node "broker" that leads every partition of one topic and answers each partition's fetches
 * with the error the test scripts for it (no records), counting the fetches of every partition.
 * It speaks just enough of the protocol for a consumer's fetcher: ApiVersions, Metadata and Fetch.
 * Used where a real broker cannot be made to give the error under test.
 */
final class ScriptedBroker implements AutoCloseable {

    static final int NODE_ID = 0;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final String topic;
    private final int partitions;
    private final Map<Integer, Errors> fetchErrors = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicInteger> fetches = new ConcurrentHashMap<>();
    private final ServerSocket server;
    private final List<Socket> connections = new ArrayList<>();
    private final Thread acceptor;

    ScriptedBroker(String topic, int partitions) throws IOException {
        this.topic = topic;
        this.partitions = partitions;
        for (int p = 0; p < partitions; p++) {
            fetches.put(p, new AtomicInteger());
        }
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "scripted-broker");
        this.acceptor.setDaemon(true);
        this.acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** From now on, fetches of {@code partition} are answered with {@code error}. */
    void failFetches(int partition, Errors error) {
        fetchErrors.put(partition, error);
    }

    int fetchesOf(int partition) {
        return fetches.get(partition).get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                synchronized (connections) {
                    connections.add(socket);
                }
                Thread handler = new Thread(() -> serve(socket), "scripted-broker-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                return;   // closed
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] frame = new byte[in.readInt()];
                in.readFully(frame);
                ByteBuffer buffer = ByteBuffer.wrap(frame);
                RequestHeader header = RequestHeader.parse(buffer);
                ApiMessage response = answer(header, buffer);
                ByteBuffer bytes = Frames.response(header.correlationId(), response, header.apiVersion());
                out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                out.flush();
            }
        } catch (IOException e) {
            // the client went away or the broker closed
        }
    }

    private ApiMessage answer(RequestHeader header, ByteBuffer body) {
        ApiKey api = header.api();
        switch (api) {
            case API_VERSIONS:
                return ApiVersionsResponse.supported(Errors.NONE, 0);
            case METADATA:
                return metadata();
            case FETCH:
                return fetch(FetchRequest.parse(body, header.apiVersion()));
            default:
                throw new IllegalStateException("The scripted broker does not answer " + api);
        }
    }

    private MetadataResponse metadata() {
        List<MetadataResponse.Partition> leaders = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            leaders.add(new MetadataResponse.Partition(Errors.NONE.code(), p, NODE_ID, 0, List.of(NODE_ID),
                List.of(NODE_ID), List.of()));
        }
        MetadataResponse.Topic described = new MetadataResponse.Topic(Errors.NONE.code(), topic, UUID.randomUUID(), false,
            leaders, MetadataResponse.UNKNOWN_AUTHORIZED_OPERATIONS);
        return new MetadataResponse(0, List.of(new MetadataResponse.Broker(NODE_ID, "127.0.0.1", port(), null)),
            "scripted", NODE_ID, List.of(described), MetadataResponse.UNKNOWN_AUTHORIZED_OPERATIONS, Errors.NONE.code());
    }

    private FetchResponse fetch(FetchRequest request) {
        List<FetchableTopicResponse> topics = new ArrayList<>();
        for (FetchRequest.FetchTopic fetched : request.topics()) {
            List<PartitionData> answers = new ArrayList<>();
            for (FetchRequest.FetchPartition partition : fetched.partitions()) {
                fetches.get(partition.partition()).incrementAndGet();
                Errors error = fetchErrors.getOrDefault(partition.partition(), Errors.NONE);
                long end = error == Errors.NONE ? partition.fetchOffset() : -1L;
                answers.add(PartitionData.of(partition.partition(), error, end, end, error == Errors.NONE ? 0L : -1L,
                    RecordsPayload.of(EMPTY.duplicate())));
            }
            topics.add(new FetchableTopicResponse(fetched.topic(), answers));
        }
        return new FetchResponse(0, Errors.NONE.code(), 0, topics);
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (connections) {
            for (Socket socket : connections) {
                socket.close();
            }
        }
    }
}
