package io.millrace.bench.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The reading end of {@link MachineCeilings}' loopback measurement, in a JVM of its own:
 * {@code <port> <bytes>}. Connects to the port on 127.0.0.1, reads and discards until it has
 * received that many bytes, then writes back how many it received (8 bytes, big-endian), so the
 * writer can stop its clock only once every byte has crossed.
 */
public final class LoopbackSinkMain {

    /** Larger than the writer's writes, so the reader is never the one that makes more system calls. */
    private static final int READ_BUFFER_BYTES = 256 * 1024;

    private LoopbackSinkMain() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("Usage: LoopbackSinkMain <port> <bytes>");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        long expected = Long.parseLong(args[1]);
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress(LoopbackPorts.HOST, port))) {
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
            ByteBuffer count = ByteBuffer.allocate(Long.BYTES).putLong(received).flip();
            while (count.hasRemaining()) {
                channel.write(count);
            }
        }
    }
}
