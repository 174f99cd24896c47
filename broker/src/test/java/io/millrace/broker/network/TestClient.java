package io.millrace.broker.network;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A blocking client over a plain {@link Socket}, so the server is tested against bytes it did not
 * produce itself. Frames are a 4-byte big-endian size and the payload. Every read times out
 * after 10 s, so a broken server fails a test instead of hanging it.
 */
final class TestClient implements Closeable {

    static final int READ_TIMEOUT_MS = 10_000;

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    TestClient(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    static byte[] frame(byte[] payload) {
        return ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).array();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    void send(byte[] payload) throws IOException {
        sendRaw(frame(payload));
    }

    void send(String payload) throws IOException {
        send(utf8(payload));
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    byte[] receive() throws IOException {
        int size = in.readInt();
        byte[] payload = new byte[size];
        in.readFully(payload);
        return payload;
    }

    String receiveString() throws IOException {
        return new String(receive(), StandardCharsets.UTF_8);
    }

    /** True if the server closed the connection (end of stream or reset) before the read timeout. */
    boolean closedByServer() throws IOException {
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
