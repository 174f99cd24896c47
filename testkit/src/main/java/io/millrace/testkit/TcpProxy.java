package io.millrace.testkit;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP forwarder on a loopback port, for simulating a network partition between one client and
 * a server: {@link #cut()} drops every connection and refuses new ones until {@link #heal()}.
 * Clients that must be cut off connect through {@link #connectString()}; the others connect to
 * the server directly. {@link #dropNextReply()} loses one answer instead: the request reached the
 * server, its reply never reaches the client, and the client must send it again.
 * {@link #corruptNextProduceBatch(String)} damages one Kafka Produce request's records on the way
 * instead, so the broker refuses that batch (a retriable CORRUPT_MESSAGE) while the requests behind
 * it on the connection arrive whole. Clients' bytes are forwarded a length-prefixed frame at a time,
 * which is how both Kafka's and ZooKeeper's protocols frame them. One thread accepts, two threads
 * pump each connection; all are daemons.
 */
public final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean dropNextReply = new AtomicBoolean();
    private final AtomicInteger repliesDropped = new AtomicInteger();
    private final AtomicReference<byte[]> corruptNextProduceTo = new AtomicReference<>();
    private final AtomicInteger producesCorrupted = new AtomicInteger();
    private volatile boolean cut;
    private volatile boolean closed;

    /** Starts forwarding a new loopback port to {@code 127.0.0.1:targetPort}. */
    public TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon("tcp-proxy-" + server.getLocalPort(), this::acceptLoop).start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String connectString() {
        return "127.0.0.1:" + port();
    }

    /** Drops every connection; connections made from now on are closed as soon as they are accepted. */
    public void cut() {
        cut = true;
        closeAll();
    }

    /** Accepts and forwards connections again. */
    public void heal() {
        cut = false;
    }

    /**
     * The next bytes any server connection sends are thrown away and every connection is dropped
     * (new ones are accepted again at once), as when a link fails between a request's arrival and
     * its answer. {@link #repliesDropped()} counts the times this happened.
     */
    public void dropNextReply() {
        dropNextReply.set(true);
    }

    public int repliesDropped() {
        return repliesDropped.get();
    }

    /**
     * Flips a bit in the last record of the next Produce request (api key 0) any client sends to
     * {@code topic}, which must carry one partition: its records then end four bytes before the frame
     * (ahead of three empty tagged-field sections in a flexible version, 9 and later; inside the last
     * record in earlier ones). The batch fails its CRC. {@link #producesCorrupted()} counts the
     * requests damaged.
     */
    public void corruptNextProduceBatch(String topic) {
        corruptNextProduceTo.set(topic.getBytes(StandardCharsets.UTF_8));
    }

    public int producesCorrupted() {
        return producesCorrupted.get();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        closeAll();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                if (cut) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                daemon("tcp-proxy-up", () -> pumpRequests(client, upstream)).start();
                daemon("tcp-proxy-down", () -> pumpReplies(upstream, client)).start();
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection fail
            }
        }
    }

    private void pumpRequests(Socket from, Socket to) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(from.getInputStream()));
             OutputStream out = to.getOutputStream()) {
            while (true) {
                int size = in.readInt();
                byte[] frame = new byte[Integer.BYTES + size];
                ByteBuffer.wrap(frame).putInt(size);
                in.readFully(frame, Integer.BYTES, size);
                byte[] topic = corruptNextProduceTo.get();
                if (topic != null && isProduceTo(frame, topic) && corruptNextProduceTo.compareAndSet(topic, null)) {
                    frame[frame.length - 4] ^= 0x10;
                    producesCorrupted.incrementAndGet();
                }
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away (an EOFException when the client closed between frames)
        } finally {
            quietlyClose(from);
            quietlyClose(to);
        }
    }

    private static boolean isProduceTo(byte[] frame, byte[] topic) {
        if (frame.length < Integer.BYTES + 8 || frame[Integer.BYTES] != 0 || frame[Integer.BYTES + 1] != 0) {
            return false;
        }
        for (int at = Integer.BYTES; at + topic.length <= frame.length; at++) {
            if (Arrays.equals(frame, at, at + topic.length, topic, 0, topic.length)) {
                return true;
            }
        }
        return false;
    }

    private void pumpReplies(Socket from, Socket to) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (dropNextReply.compareAndSet(true, false)) {
                    repliesDropped.incrementAndGet();
                    closeAll();
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            quietlyClose(from);
            quietlyClose(to);
        }
    }

    private void closeAll() {
        for (Socket socket : sockets) {
            quietlyClose(socket);
        }
    }

    private void quietlyClose(Socket socket) {
        sockets.remove(socket);
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
