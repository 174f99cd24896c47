package io.millrace.broker.server;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.ResponseHeader;
import io.millrace.common.protocol.message.ApiMessages;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * A blocking Kafka-protocol client over a plain socket, built on the common codec, for requests no
 * real client would send: malformed bodies, corrupt batches, oversized frames. Reads time out after
 * 10 s so a broken broker fails a test rather than hanging it.
 */
final class RawClient implements Closeable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int correlationId;

    RawClient(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends {@code body} at {@code version} and returns the parsed response. */
    @SuppressWarnings("unchecked")
    <T extends ApiMessage> T call(ApiMessage body, short version) throws IOException {
        send(body, version);
        return (T) receive(body.apiKey(), version);
    }

    /** Sends {@code body} at {@code version} without waiting for its response; returns its correlation id. */
    int send(ApiMessage body, short version) throws IOException {
        RequestHeader header = new RequestHeader(body.apiKey(), version, ++correlationId, "raw-client");
        sendRaw(Frames.request(header, body));
        return correlationId;
    }

    /** A frame of a header for any api key and version and a body of arbitrary bytes. */
    void send(short apiKey, short version, byte[] body) throws IOException {
        RequestHeader header = new RequestHeader(apiKey, version, ++correlationId, "raw-client");
        ByteBuffer frame = ByteBuffer.allocate(4 + header.sizeInBytes() + body.length);
        frame.putInt(header.sizeInBytes() + body.length);
        header.writeTo(frame);
        sendRaw(frame.put(body).flip());
    }

    void sendRaw(ByteBuffer frame) throws IOException {
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        out.write(bytes);
        out.flush();
    }

    ApiMessage receive(ApiKey api, short version) throws IOException {
        return receive(api, version, correlationId);
    }

    /** The next response, which must answer the request sent with {@code expectedCorrelationId}. */
    ApiMessage receive(ApiKey api, short version, int expectedCorrelationId) throws IOException {
        int size = in.readInt();
        byte[] payload = new byte[size];
        in.readFully(payload);
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        ResponseHeader header = ResponseHeader.parse(buffer, api.responseHeaderVersion(version));
        if (header.correlationId() != expectedCorrelationId) {
            throw new IOException("Correlation id " + header.correlationId() + ", expected " + expectedCorrelationId);
        }
        return ApiMessages.parseResponse(api, buffer, version);
    }

    /** True if the broker closed the connection before the read timeout. */
    boolean closedByBroker() throws IOException {
        try {
            return in.read() == -1;
        } catch (EOFException | SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
