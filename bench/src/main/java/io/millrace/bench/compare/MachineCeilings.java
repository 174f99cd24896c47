package io.millrace.bench.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 6: what this machine allows at most, measured in the same run as the brokers so that
 * each broker's figures can be read as a fraction of it. Five ceilings, each as bytes per second
 * and as {@value Scenarios#MESSAGE_BYTES}-byte messages per second:
 * <ul>
 * <li>{@value #PAGE_CACHE_WRITE}: {@link #PAGE_CACHE_BYTES} (times the scale) appended in 1 MiB
 *     chunks through a FileChannel to a new file in the data directory, never forced to disk: what
 *     a broker's log append costs at best;
 * <li>{@value #PAGE_CACHE_READ}: the same file read back right after, from the page cache: what
 *     a consumer's fetch of recent data costs at best;
 * <li>{@value #FSYNC_WRITE}: {@link #FSYNC_BYTES} (times the scale) appended in 1 MiB chunks with
 *     {@code FileChannel.force(true)} (as both brokers flush a segment) after each chunk: a broker
 *     that flushes its log after every batch of about 5000 messages (1 MiB / 200 B = 5243);
 * <li>{@value #LOOPBACK}: {@link #LOOPBACK_BYTES} (times the scale) written in 64 KiB writes over
 *     a TCP connection on 127.0.0.1 to another JVM ({@link LoopbackSinkMain}) that reads and
 *     discards them; timed at the writer until the reader confirms the total: what moving a
 *     message between a client and a broker costs at best;
 * <li>{@value #ROUND_TRIP}: requests of {@value #ROUND_TRIP_MESSAGES} messages
 *     ({@link #ROUND_TRIP_REQUEST_BYTES} bytes) written to the same kind of reader, which answers each
 *     with 8 bytes, the next request written only once the answer is read: what a producer with one
 *     request in flight and batches of 50 gets at best, with no client or broker work at all.
 * </ul>
 * The files live in a directory of their own under the data directory, deleted afterwards.
 */
final class MachineCeilings {

    static final String PAGE_CACHE_WRITE = "page-cache write";
    static final String PAGE_CACHE_READ = "page-cache read";
    static final String FSYNC_WRITE = "fsync'd write, 1 MiB per flush";
    static final String LOOPBACK = "loopback TCP";
    static final String ROUND_TRIP = "loopback round trips, 50 messages each";

    static final long PAGE_CACHE_BYTES = 1L << 30;
    static final long FSYNC_BYTES = 64L << 20;
    static final long LOOPBACK_BYTES = 2L << 30;
    static final int FILE_CHUNK_BYTES = 1 << 20;
    static final int SOCKET_WRITE_BYTES = 64 << 10;
    static final int ROUND_TRIP_MESSAGES = 50;
    static final int ROUND_TRIP_REQUEST_BYTES = ROUND_TRIP_MESSAGES * Scenarios.MESSAGE_BYTES;
    static final long ROUND_TRIPS = 100_000;
    private static final long READER_TIMEOUT_SECONDS = 60;

    /** One ceiling: the most bytes per second this machine moved that way. */
    record Ceiling(String name, double bytesPerSecond) {
        double messagesPerSecond() {
            return bytesPerSecond / Scenarios.MESSAGE_BYTES;
        }
    }

    private MachineCeilings() {
    }

    /** Measures the five ceilings in order, with every size multiplied by {@code scale} (at least one chunk). */
    static List<Ceiling> measure(Path dataDir, double scale) throws Exception {
        Path dir = Files.createTempDirectory(dataDir, "ceilings-");
        try {
            Path file = dir.resolve("page-cache");
            long pageCacheBytes = scaled(PAGE_CACHE_BYTES, scale, FILE_CHUNK_BYTES);
            Ceiling write = new Ceiling(PAGE_CACHE_WRITE, writeFile(file, pageCacheBytes, false));
            Ceiling read = new Ceiling(PAGE_CACHE_READ, readFile(file, pageCacheBytes));
            Files.delete(file);
            Path flushed = dir.resolve("fsync");
            Ceiling fsync = new Ceiling(FSYNC_WRITE, writeFile(flushed, scaled(FSYNC_BYTES, scale, FILE_CHUNK_BYTES), true));
            Files.delete(flushed);
            Ceiling loopback = new Ceiling(LOOPBACK, loopback(dir, scaled(LOOPBACK_BYTES, scale, SOCKET_WRITE_BYTES), 0));
            long roundTripBytes = scaled(ROUND_TRIPS * ROUND_TRIP_REQUEST_BYTES, scale, ROUND_TRIP_REQUEST_BYTES);
            Ceiling roundTrips = new Ceiling(ROUND_TRIP, loopback(dir, roundTripBytes, ROUND_TRIP_REQUEST_BYTES));
            return List.of(write, read, fsync, loopback, roundTrips);
        } finally {
            BrokerProcess.deleteRecursively(dir);
        }
    }

    /** {@code bytes * scale}, rounded to whole chunks, at least one. */
    static long scaled(long bytes, double scale, int chunk) {
        return Math.max(1, Math.round(bytes * scale / chunk)) * chunk;
    }

    /** Bytes per second of appending {@code bytes} in 1 MiB chunks to a new file, forcing each chunk if asked. */
    private static double writeFile(Path file, long bytes, boolean forceEachChunk) throws IOException {
        ByteBuffer chunk = randomChunk(FILE_CHUNK_BYTES);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long start = System.nanoTime();
            for (long written = 0; written < bytes; written += FILE_CHUNK_BYTES) {
                chunk.rewind();
                while (chunk.hasRemaining()) {
                    channel.write(chunk);
                }
                if (forceEachChunk) {
                    channel.force(true);
                }
            }
            return perSecond(bytes, start);
        }
    }

    private static double readFile(Path file, long bytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(FILE_CHUNK_BYTES);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long read = 0;
            long start = System.nanoTime();
            while (true) {
                chunk.clear();
                int n = channel.read(chunk);
                if (n < 0) {
                    break;
                }
                read += n;
            }
            double rate = perSecond(read, start);
            if (read != bytes) {
                throw new IllegalStateException("Read " + read + " bytes back of " + bytes + " written");
            }
            return rate;
        }
    }

    /**
     * Bytes per second to a reader in another JVM, from the first write to the reader's confirmation:
     * streamed in 64 KiB writes, or with {@code requestBytes} > 0 in requests each answered before the next.
     */
    private static double loopback(Path dir, long bytes, int requestBytes) throws Exception {
        Path readerLog = dir.resolve("loopback-reader.log");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(LoopbackPorts.HOST, 0), 1);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            Process reader = new ProcessBuilder(readerCommand(port, bytes, requestBytes)).redirectErrorStream(true)
                .redirectOutput(readerLog.toFile()).start();
            try (SocketChannel channel = accept(server, reader, readerLog)) {
                int writeBytes = requestBytes > 0 ? requestBytes : SOCKET_WRITE_BYTES;
                ByteBuffer chunk = randomChunk(writeBytes);
                long received = 0;
                long start = System.nanoTime();
                for (long written = 0; written < bytes; written += writeBytes) {
                    chunk.rewind();
                    while (chunk.hasRemaining()) {
                        channel.write(chunk);
                    }
                    if (requestBytes > 0) {
                        received = readCount(channel);
                    }
                }
                if (requestBytes == 0) {
                    received = readCount(channel);
                }
                double rate = perSecond(bytes, start);
                if (received != bytes) {
                    throw new IllegalStateException("Loopback reader received " + received + " bytes of " + bytes);
                }
                return rate;
            } finally {
                if (!reader.waitFor(READER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    BrokerProcess.stop(reader);
                }
            }
        }
    }

    /** The reader's connection; fails if the reader exits or does not connect in time. */
    private static SocketChannel accept(ServerSocketChannel server, Process reader, Path readerLog) throws Exception {
        server.configureBlocking(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READER_TIMEOUT_SECONDS);
        while (true) {
            SocketChannel channel = server.accept();
            if (channel != null) {
                channel.configureBlocking(true);
                return channel;
            }
            if (!reader.isAlive() || System.nanoTime() > deadline) {
                BrokerProcess.stop(reader);
                throw new IllegalStateException("Loopback reader did not connect: " + Files.readString(readerLog));
            }
            Thread.sleep(10);
        }
    }

    private static long readCount(SocketChannel channel) throws IOException {
        ByteBuffer count = ByteBuffer.allocate(Long.BYTES);
        while (count.hasRemaining()) {
            if (channel.read(count) < 0) {
                throw new IOException("Loopback reader closed the connection before confirming");
            }
        }
        return count.flip().getLong();
    }

    /** A small JVM with this JVM's java and classpath, as the brokers are started. */
    private static List<String> readerCommand(int port, long bytes, int requestBytes) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx64m", "-cp", BrokerProcess.absoluteClassPath(), LoopbackSinkMain.class.getName(),
            Integer.toString(port), Long.toString(bytes)));
        if (requestBytes > 0) {
            command.add(Integer.toString(requestBytes));
        }
        return command;
    }

    /** Random content, so no layer can take a shortcut for zeros. */
    private static ByteBuffer randomChunk(int size) {
        byte[] bytes = new byte[size];
        new Random(42).nextBytes(bytes);
        return ByteBuffer.allocateDirect(size).put(bytes).flip();
    }

    private static double perSecond(long bytes, long startNanos) {
        return bytes / ((System.nanoTime() - startNanos) / 1e9);
    }
}
