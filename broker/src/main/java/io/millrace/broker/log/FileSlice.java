package io.millrace.broker.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A range of a segment file that a fetch returns: whole record batches, except that the last one
 * may be cut off where the fetch's byte budget ends (as in Kafka; readers stop at a truncated
 * tail). The network layer sends it with {@link #transferTo}, which the JDK turns into
 * {@code sendfile} for socket targets, so fetched bytes never enter the Java heap.
 *
 * <p>Immutable and thread-safe. The bytes it names are immutable too: a log only appends beyond
 * its published end, and a deleted segment keeps its channel open for
 * {@code file.delete.delay.ms} so that slices already handed out stay readable.
 */
public final class FileSlice {

    private final FileChannel channel;
    private final long position;
    private final int sizeInBytes;

    FileSlice(FileChannel channel, long position, int sizeInBytes) {
        this.channel = channel;
        this.position = position;
        this.sizeInBytes = sizeInBytes;
    }

    public FileChannel channel() {
        return channel;
    }

    /** The slice's first byte, as a position in {@link #channel()}. */
    public long position() {
        return position;
    }

    public int sizeInBytes() {
        return sizeInBytes;
    }

    public boolean isEmpty() {
        return sizeInBytes == 0;
    }

    /**
     * Sends up to {@code count} bytes starting {@code offsetInSlice} bytes into the slice; like
     * {@link FileChannel#transferTo} it may send fewer, so callers loop on the return value.
     */
    public long transferTo(WritableByteChannel target, long offsetInSlice, long count) throws IOException {
        if (offsetInSlice < 0 || offsetInSlice > sizeInBytes) {
            throw new IllegalArgumentException("Offset " + offsetInSlice + " outside a slice of " + sizeInBytes + " bytes");
        }
        long bytes = Math.min(count, sizeInBytes - offsetInSlice);
        return channel.transferTo(position + offsetInSlice, bytes, target);
    }

    /** The slice's bytes copied onto the heap, for tests and tools; the network path uses {@link #transferTo}. */
    public ByteBuffer readFully() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(sizeInBytes);
        IoUtils.readFully(channel, buffer, position);
        return buffer.flip();
    }

    @Override
    public String toString() {
        return "FileSlice(position=" + position + ", size=" + sizeInBytes + ")";
    }
}
