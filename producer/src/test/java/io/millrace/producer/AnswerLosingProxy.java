package io.millrace.producer;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.ResponseHeader;
import io.millrace.common.protocol.message.InitProducerIdResponse;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.message.ProduceResponse;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands between clients and one broker and loses the broker's answers to Produce requests on
 * demand: the request reaches the broker, which appends its batches, and the connection then breaks
 * instead of the answer coming back, so the producer sends the same batches again. It can also turn
 * an answer into an error the broker did not give. It reads the
 * Kafka protocol's frames to know which answer is which, and rewrites Metadata answers to name
 * itself instead of the broker, so that a client bootstrapped through it keeps every connection
 * here. One thread accepts; two daemon threads pump each connection.
 */
final class AnswerLosingProxy implements AutoCloseable {

    private final int brokerPort;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger produceAnswersToLose = new AtomicInteger();
    private final AtomicInteger produceAnswersLost = new AtomicInteger();
    private final AtomicInteger produceRequests = new AtomicInteger();
    private final AtomicInteger produceAnswers = new AtomicInteger();
    private volatile int loseEvery;
    private final Queue<Short> errorsToAnswer = new ConcurrentLinkedQueue<>();
    private final Queue<Short> producerIdErrors = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    AnswerLosingProxy(int brokerPort) throws IOException {
        this.brokerPort = brokerPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("answer-losing-proxy", this::acceptLoop).start();
    }

    String bootstrapServers() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** The answers to the next {@code count} Produce requests are lost, each breaking its connection. */
    void loseNextProduceAnswers(int count) {
        produceAnswersToLose.addAndGet(count);
    }

    /**
     * The broker's answer to the next Produce request, whatever it was, reaches the client as {@code errorCode}
     * for every partition: how a test sees what the producer makes of answers a healthy broker rarely gives.
     * The broker has appended the batches all the same.
     */
    void answerNextProduceWith(short errorCode) {
        errorsToAnswer.add(errorCode);
    }

    /** The next InitProducerId answers, one per code given, are that error instead of a producer id. */
    void answerInitProducerIdWith(short... errorCodes) {
        for (short code : errorCodes) {
            producerIdErrors.add(code);
        }
    }

    /** From now on every {@code n}th answer to a Produce request is lost; 0 stops it. */
    void loseEveryProduceAnswer(int n) {
        loseEvery = n;
    }

    int produceAnswersLost() {
        return produceAnswersLost.get();
    }

    int produceRequests() {
        return produceRequests.get();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        sockets.forEach(AnswerLosingProxy::closeQuietly);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket broker = new Socket(InetAddress.getLoopbackAddress(), brokerPort);
                sockets.add(client);
                sockets.add(broker);
                Map<Integer, short[]> requests = new ConcurrentHashMap<>();
                daemon("proxy-requests", () -> pumpRequests(client, broker, requests)).start();
                daemon("proxy-answers", () -> pumpAnswers(broker, client, requests)).start();
            } catch (IOException e) {
                // closed, or the broker refused: the client sees its connection fail
            }
        }
    }

    /** Forwards requests as they are, noting each one's api and version under its correlation id. */
    private void pumpRequests(Socket client, Socket broker, Map<Integer, short[]> requests) {
        try (DataInputStream in = new DataInputStream(client.getInputStream());
             DataOutputStream out = new DataOutputStream(broker.getOutputStream())) {
            while (true) {
                byte[] frame = readFrame(in);
                ByteBuffer header = ByteBuffer.wrap(frame);
                short apiKey = header.getShort(0);
                requests.put(header.getInt(4), new short[] {apiKey, header.getShort(2)});
                if (apiKey == ApiKey.PRODUCE.id()) {
                    produceRequests.incrementAndGet();
                }
                writeFrame(out, frame);
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            closeQuietly(client);
            closeQuietly(broker);
        }
    }

    private void pumpAnswers(Socket broker, Socket client, Map<Integer, short[]> requests) {
        try (DataInputStream in = new DataInputStream(broker.getInputStream());
             DataOutputStream out = new DataOutputStream(client.getOutputStream())) {
            while (true) {
                byte[] frame = readFrame(in);
                int correlationId = ByteBuffer.wrap(frame).getInt(0);
                short[] request = requests.remove(correlationId);
                if (request != null && request[0] == ApiKey.PRODUCE.id() && loseThisAnswer()) {
                    return;   // the finally below breaks the connection instead of answering
                }
                if (request != null && request[0] == ApiKey.METADATA.id()) {
                    frame = namingThisProxy(frame, correlationId, request[1]);
                }
                Short error = request != null && request[0] == ApiKey.PRODUCE.id() ? errorsToAnswer.poll() : null;
                if (error != null) {
                    frame = answering(error, frame, correlationId, request[1]);
                }
                Short refusal = request != null && request[0] == ApiKey.INIT_PRODUCER_ID.id() ? producerIdErrors.poll() : null;
                if (refusal != null) {
                    frame = withoutSize(Frames.response(correlationId, new InitProducerIdResponse(0, refusal, -1L, (short) -1),
                        request[1]));
                }
                writeFrame(out, frame);
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            closeQuietly(client);
            closeQuietly(broker);
        }
    }

    private boolean loseThisAnswer() {
        int every = loseEvery;
        boolean periodic = every > 0 && produceAnswers.incrementAndGet() % every == 0;
        if (periodic || produceAnswersToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            produceAnswersLost.incrementAndGet();
            return true;
        }
        return false;
    }

    /** The Metadata answer with the broker listening where this proxy does, so the client comes back here. */
    private byte[] namingThisProxy(byte[] frame, int correlationId, short version) {
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        ResponseHeader.parse(buffer, ApiKey.METADATA.responseHeaderVersion(version));
        MetadataResponse answer = MetadataResponse.parse(buffer, version);
        MetadataResponse rewritten = new MetadataResponse(answer.throttleTimeMs(),
            answer.brokers().stream().map(b -> b.port() != brokerPort ? b
                : new MetadataResponse.Broker(b.nodeId(), "127.0.0.1", server.getLocalPort(), b.rack())).toList(),
            answer.clusterId(), answer.controllerId(), answer.topics(), answer.clusterAuthorizedOperations(),
            answer.errorCode());
        return withoutSize(Frames.response(correlationId, rewritten, version));
    }

    private static byte[] answering(short errorCode, byte[] frame, int correlationId, short version) {
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        ResponseHeader.parse(buffer, ApiKey.PRODUCE.responseHeaderVersion(version));
        ProduceResponse answer = ProduceResponse.parse(buffer, version);
        ProduceResponse rewritten = new ProduceResponse(answer.responses().stream()
            .map(topic -> new ProduceResponse.TopicResponse(topic.name(), topic.partitionResponses().stream()
                .map(p -> new ProduceResponse.PartitionResponse(p.index(), errorCode, -1L, -1L, p.logStartOffset(),
                    List.of(), null)).toList()))
            .toList(), answer.throttleTimeMs());
        return withoutSize(Frames.response(correlationId, rewritten, version));
    }

    private static byte[] withoutSize(ByteBuffer frame) {
        byte[] bytes = new byte[frame.remaining() - 4];
        frame.position(4);
        frame.get(bytes);
        return bytes;
    }

    private static byte[] readFrame(DataInputStream in) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame;
    }

    private static void writeFrame(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }
}
