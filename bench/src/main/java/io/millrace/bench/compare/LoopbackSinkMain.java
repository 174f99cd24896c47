package io.millrace.bench.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The far end of {@link MachineCeilings}' loopback measurements, in a JVM of its own:
 * {@code <port> <bytes> [<request-bytes>]}. Connects to the port on 127.0.0.1 and reads until it has
 * received that many bytes. Without a request size it reads and discards, then writes back how many
 * bytes it received (8 bytes, big-endian), so the writer can stop its clock only once every byte has
 * crossed. With one, it answers every request of that many bytes with the count so far, as a broker
 * answers a produce request: the writer sends the next request only then.
 */
public final class LoopbackSinkMain {

    /** Larger than the writer's writes, so the reader is never the one that makes more system calls. */
    private static final int READ_BUFFER_BYTES = 256 * 1024;

    private LoopbackSinkMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2 && args.length != 3) {
            System.err.println("Usage: LoopbackSinkMain <port> <bytes> [<request-bytes>]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        long expected = Long.parseLong(args[1]);
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress(LoopbackPorts.HOST, port))) {
            if (args.length == 3) {
                answerEach(channel, expected, Integer.parseInt(args[2]));
            } else {
                reply(channel, discard(channel, expected));
            }
        }
    }

    private static long discard(SocketChannel channel, long expected) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
        long received = 0;
        while (received < expected) {
            buffer.clear();
            int n = channel.read(buffer);
            if (n < 0) {
                break;
            }
            received += n;
        }
        return received;
    }

    /** Reads whole requests of {@code requestBytes} and answers each; stops after {@code expected} bytes. */
    private static void answerEach(SocketChannel channel, long expected, int requestBytes) throws IOException {
        ByteBuffer request = ByteBuffer.allocateDirect(requestBytes);
        long received = 0;
        while (received < expected) {
            request.clear();
            while (request.hasRemaining()) {
                if (channel.read(request) < 0) {
                    return;
                }
            }
            received += requestBytes;
            reply(channel, received);
        }
    }

    private static void reply(SocketChannel channel, long received) throws IOException {
        ByteBuffer count = ByteBuffer.allocate(Long.BYTES).putLong(received).flip();
        while (count.hasRemaining()) {
            channel.write(count);
        }
    }
}
