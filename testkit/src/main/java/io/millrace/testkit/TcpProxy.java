package io.millrace.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on a loopback port, for simulating a network partition between one client and
 * a server: {@link #cut()} drops every connection and refuses new ones until {@link #heal()}.
 * Clients that must be cut off connect through {@link #connectString()}; the others connect to
 * the server directly. {@link #dropNextReply()} loses one answer instead: the request reached the
 * server, its reply never reaches the client, and the client must send it again. One thread accepts,
 * two threads pump each connection; all are daemons.
 */
public final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean dropNextReply = new AtomicBoolean();
    private final AtomicInteger repliesDropped = new AtomicInteger();
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
                daemon("tcp-proxy-up", () -> pump(client, upstream, false)).start();
                daemon("tcp-proxy-down", () -> pump(upstream, client, true)).start();
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection fail
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromServer) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (fromServer && dropNextReply.compareAndSet(true, false)) {
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
