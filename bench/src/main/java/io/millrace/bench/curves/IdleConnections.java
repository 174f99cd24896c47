package io.millrace.bench.curves;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Connections that a client opened and then left idle, as a fleet of producers between bursts leaves
 * them: plain sockets, each of which sends one ApiVersions request (v0, so that either broker answers
 * it without a flexible header), reads the whole answer and then sends nothing more. Both brokers close
 * a connection after {@code connections.max.idle.ms} (10 minutes by default), longer than a curve runs.
 */
final class IdleConnections implements AutoCloseable {

    private static final short API_VERSIONS = 18;
    private static final byte[] CLIENT_ID = "curves-idle".getBytes(StandardCharsets.UTF_8);
    private static final int TIMEOUT_MS = 30_000;

    private final String host;
    private final int port;
    private final List<Socket> open = new ArrayList<>();

    IdleConnections(String bootstrap) {
        int colon = bootstrap.lastIndexOf(':');
        this.host = bootstrap.substring(0, colon);
        this.port = Integer.parseInt(bootstrap.substring(colon + 1));
    }

    int size() {
        return open.size();
    }

    /** Opens connections until {@code total} are open, each answered once. */
    void openUpTo(int total) throws IOException {
        while (open.size() < total) {
            Socket s = new Socket();
            open.add(s);
            s.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            s.setSoTimeout(TIMEOUT_MS);
            apiVersions(s, open.size());
        }
    }

    private static void apiVersions(Socket s, int correlationId) throws IOException {
        ByteBuffer request = ByteBuffer.allocate(4 + 2 + 2 + 4 + 2 + CLIENT_ID.length);
        request.putInt(request.capacity() - 4).putShort(API_VERSIONS).putShort((short) 0).putInt(correlationId)
            .putShort((short) CLIENT_ID.length).put(CLIENT_ID);
        OutputStream out = s.getOutputStream();
        out.write(request.array());
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        int size = in.readInt();
        if (size < 4) {
            throw new IOException("ApiVersions answer of " + size + " bytes");
        }
        byte[] body = new byte[size];
        in.readFully(body);
        if (ByteBuffer.wrap(body).getInt() != correlationId) {
            throw new IOException("ApiVersions answered with another correlation id");
        }
    }

    /** How many of the connections the broker closed (a read finds their end) or reset. */
    int closedByBroker() throws IOException {
        int closed = 0;
        for (Socket s : open) {
            s.setSoTimeout(1);
            try {
                if (s.getInputStream().read() < 0) {
                    closed++;
                }
            } catch (java.net.SocketTimeoutException stillOpen) {
                // nothing to read: still open
            } catch (IOException reset) {
                closed++;
            } finally {
                s.setSoTimeout(TIMEOUT_MS);
            }
        }
        return closed;
    }

    @Override
    public void close() {
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing; nothing to do
            }
        }
        open.clear();
    }
}
