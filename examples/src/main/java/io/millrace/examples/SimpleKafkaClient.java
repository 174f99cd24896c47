package io.millrace.examples;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.ResponseHeader;
import io.millrace.common.protocol.message.ApiMessages;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * The smallest useful Kafka-protocol client: one blocking socket, one request at a time. It
 * writes a request frame with the common codec ({@link Frames#request}), reads the size-prefixed
 * response frame, checks its correlation id and parses the body ({@link ApiMessages#parseResponse}).
 *
 * <p>It sends every request at the newest version Millrace's codec speaks, since broker and client
 * share that codec; against another broker, pick versions from an ApiVersions answer first. No
 * retries, no metadata, no pipelining: a stand-in until Millrace has its own producer and
 * consumer. Reads time out after 10 s, so a broken broker fails the caller instead of hanging it.
 *
 * <p>Not thread-safe.
 */
public final class SimpleKafkaClient implements Closeable {

    private static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final String clientId;
    private int correlationId;

    public SimpleKafkaClient(String host, int port, String clientId) throws IOException {
        this.socket = new Socket(host, port);
        this.clientId = clientId;
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends {@code request} at the newest version Millrace supports and returns the response. */
    public <T extends ApiMessage> T call(ApiMessage request) throws IOException {
        return call(request, request.apiKey().maxVersion());
    }

    /** Sends {@code request} at {@code version} and waits for its response. */
    @SuppressWarnings("unchecked")
    public <T extends ApiMessage> T call(ApiMessage request, short version) throws IOException {
        RequestHeader header = new RequestHeader(request.apiKey(), version, ++correlationId, clientId);
        ByteBuffer frame = Frames.request(header, request);
        out.write(frame.array(), frame.position(), frame.remaining());
        out.flush();
        return (T) receive(request.apiKey(), version);
    }

    private ApiMessage receive(ApiKey api, short version) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        ResponseHeader header = ResponseHeader.parse(buffer, api.responseHeaderVersion(version));
        if (header.correlationId() != correlationId) {
            throw new IOException("Response to request " + header.correlationId() + ", expected " + correlationId);
        }
        return ApiMessages.parseResponse(api, buffer, version);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
