package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One response frame: a 4-byte big-endian size, then the parts in order. A part is a buffer
 * (protocol bytes: response header and fields) or a region of a file (record batches from a
 * log segment, sent with {@code sendfile}, never copied into the JVM). The size is computed here
 * from the parts, so it always covers all of them; callers add only what comes after it.
 *
 * <pre>
 * Frame  => size part...       size: INT32 = sum of the parts' lengths
 *
 * e.g. a Fetch answer:  [size][header + fields up to records length][file region][more fields][file region][tail]
 * </pre>
 *
 * <p><b>Ownership.</b> {@link Builder#add(ByteBuf)} takes over the caller's reference; from
 * {@link RequestContext#sendResponse} on, the network layer releases every buffer exactly once,
 * whether the frame is written, fails, or finds the connection closed. A builder that is not
 * built must be {@link Builder#discard() discarded}. File channels are borrowed and never closed:
 * the caller keeps them open until the {@link Listener} has been told (log segments do, for
 * {@code file.delete.delay.ms}).
 *
 * <p>A builder is for one thread; a built send is handed to exactly one {@code sendResponse}.
 */
public final class ResponseSend {

    /** Told once that the frame was written to the socket (failure null), or why not. */
    @FunctionalInterface
    public interface Listener {
        void onComplete(Throwable failure);
    }

    static final int SIZE_PREFIX_BYTES = 4;

    private static final Logger log = LoggerFactory.getLogger(ResponseSend.class);

    private final Object[] parts;
    private final int sizeInBytes;
    private final Listener listener;
    private final AtomicBoolean consumed = new AtomicBoolean();

    private ResponseSend(Object[] parts, int sizeInBytes, Listener listener) {
        this.parts = parts;
        this.sizeInBytes = sizeInBytes;
        this.listener = listener;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A frame of one buffer, whose reference it takes over. */
    public static ResponseSend of(ByteBuf body) {
        return builder().add(body).build();
    }

    /** The bytes after the size field: what the size field says. */
    public int sizeInBytes() {
        return sizeInBytes;
    }

    /** The whole frame on the wire, size field included. */
    public long frameSizeInBytes() {
        return SIZE_PREFIX_BYTES + (long) sizeInBytes;
    }

    /**
     * Writes the frame and flushes; {@code promise} completes when the last part is written.
     * Netty owns every part from here on and releases it whatever happens. Event loop only.
     */
    void writeTo(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (!consumed.compareAndSet(false, true)) {
            throw new IllegalStateException("Response already written or released");
        }
        ByteBuf size = ctx.alloc().ioBuffer(SIZE_PREFIX_BYTES).writeInt(sizeInBytes);
        if (parts.length == 0) {
            ctx.writeAndFlush(size, promise);
            return;
        }
        // Only the last write carries a promise: a failed earlier part fails the channel and with it the last.
        ctx.write(size, ctx.voidPromise());
        for (int i = 0; i < parts.length; i++) {
            ctx.write(toMessage(parts[i]), i == parts.length - 1 ? promise : ctx.voidPromise());
        }
        ctx.flush();
    }

    /** Releases the parts of a frame that will not be written and tells the listener why. */
    void fail(Throwable cause) {
        if (consumed.compareAndSet(false, true)) {
            for (Object part : parts) {
                ReferenceCountUtil.release(part);
            }
        }
        notifyListener(cause);
    }

    /** Tells the listener how the write ended. */
    void notifyListener(Throwable failure) {
        if (listener == null) {
            return;
        }
        try {
            listener.onComplete(failure);
        } catch (RuntimeException e) {
            log.error("Response listener failed", e);
        }
    }

    private static Object toMessage(Object part) {
        if (part instanceof FileSpan) {
            FileSpan span = (FileSpan) part;
            return new SharedFileRegion(span.channel, span.position, span.count);
        }
        return part;
    }

    /** A region of a file, turned into a file region only when written. */
    private static final class FileSpan {
        final FileChannel channel;
        final long position;
        final long count;

        FileSpan(FileChannel channel, long position, long count) {
            this.channel = channel;
            this.position = position;
            this.count = count;
        }
    }

    /** Collects the parts of a frame in wire order. Not thread-safe. */
    public static final class Builder {

        private final List<Object> parts = new ArrayList<>(4);
        private long size;
        private Listener listener;

        private Builder() {
        }

        /** Appends a buffer's readable bytes, taking over the caller's reference to it. */
        public Builder add(ByteBuf bytes) {
            Objects.requireNonNull(bytes);
            addPart(bytes, bytes.readableBytes());
            return this;
        }

        /** Appends a ByteBuffer's remaining bytes without copying; it must not change until completion. */
        public Builder add(ByteBuffer bytes) {
            return add(Unpooled.wrappedBuffer(bytes));
        }

        /** Appends {@code count} bytes of {@code channel} from {@code position}; the channel is not closed. */
        public Builder addFile(FileChannel channel, long position, long count) {
            Objects.requireNonNull(channel);
            if (position < 0 || count < 0) {
                throw new IllegalArgumentException("Bad file region: position " + position + ", count " + count);
            }
            addPart(new FileSpan(channel, position, count), count);
            return this;
        }

        /** Who to tell when the frame is written or has failed; called on a network thread, must not block. */
        public Builder whenComplete(Listener listener) {
            this.listener = listener;
            return this;
        }

        public ResponseSend build() {
            ResponseSend send = new ResponseSend(parts.toArray(), (int) size, listener);
            parts.clear();
            size = 0;
            return send;
        }

        /** Releases the buffers added so far; for a response that will not be sent after all. */
        public void discard() {
            for (Object part : parts) {
                ReferenceCountUtil.release(part);
            }
            parts.clear();
            size = 0;
        }

        private void addPart(Object part, long length) {
            if (size + length > Integer.MAX_VALUE) {
                ReferenceCountUtil.release(part);
                discard();
                throw new IllegalArgumentException("A response frame is at most " + Integer.MAX_VALUE + " bytes");
            }
            if (length == 0) {
                ReferenceCountUtil.release(part);
                return;
            }
            parts.add(part);
            size += length;
        }
    }
}
