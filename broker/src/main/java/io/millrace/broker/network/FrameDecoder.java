package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the byte stream into request frames: a 4-byte big-endian size, then that many bytes.
 * Emits each payload (size stripped) as a retained slice of the read buffer, so a request is
 * never copied. A size below 0 or above {@code socket.request.max.bytes} closes the connection
 * and is logged at WARN with the client's address: the stream can no longer be trusted, and
 * reading on to skip a claimed 2 GiB would only feed a broken or hostile client.
 *
 * <pre>
 * RequestFrame => size payload      size: INT32, the payload's length
 * e.g. 00 00 00 03 'a' 'b' 'c'  is one frame whose payload is "abc"
 * </pre>
 *
 * <p>As soon as a frame's size is known, the decoder reserves that many bytes in the broker's
 * {@link RequestMemory} ({@code queued.max.request.bytes}) before reading on; when they do not fit it
 * stops reading from the socket ({@link ReadGate}) and decodes again when memory is released. The
 * reservation passes with the frame to the request, which gives it back when it is released.
 *
 * <p>Stateful, one per connection: it holds the bytes of a partly received frame (in
 * {@link ByteToMessageDecoder}'s cumulation), whether that frame's memory is reserved, and whether
 * the connection was rejected.
 */
final class FrameDecoder extends ByteToMessageDecoder {

    static final int SIZE_BYTES = 4;

    private static final Logger log = LoggerFactory.getLogger(FrameDecoder.class);

    private final int maxRequestBytes;
    private final NetworkMetrics metrics;
    private final RequestMemory memory;
    private ReadGate gate;
    private final Runnable onMemoryReleased = this::memoryReleased;
    private ChannelHandlerContext ctx;
    private boolean rejected;
    private boolean closed;
    private boolean waitingForMemory;
    /** Bytes reserved for the frame being received, 0 when none. */
    private int reserved;

    /** A decoder alone, with unbounded request memory and a gate of its own. */
    FrameDecoder(int maxRequestBytes, NetworkMetrics metrics) {
        this(maxRequestBytes, metrics, new RequestMemory(-1), null);
    }

    /** @param gate the connection's read gate, shared with its request handler; null: one of its own */
    FrameDecoder(int maxRequestBytes, NetworkMetrics metrics, RequestMemory memory, ReadGate gate) {
        this.maxRequestBytes = maxRequestBytes;
        this.metrics = metrics;
        this.memory = memory;
        this.gate = gate;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (gate == null) {
            gate = new ReadGate(ctx.channel(), () -> false);
        }
    }

    // hot path: no allocation (the slice is a recycled object of the pooled allocator)
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (rejected) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < SIZE_BYTES) {
            return;
        }
        int size = in.getInt(in.readerIndex());
        if (size < 0 || size > maxRequestBytes) {
            reject(ctx, size);
            in.skipBytes(in.readableBytes());
            return;
        }
        if (reserved == 0 && size > 0 && !reserve(size)) {
            return;
        }
        if (in.readableBytes() - SIZE_BYTES < size) {
            return;
        }
        reserved = 0;   // the request owns the reservation from here
        in.skipBytes(SIZE_BYTES);
        out.add(in.readRetainedSlice(size));
    }

    private boolean reserve(int size) {
        if (closed || !memory.reserveOrWait(size, onMemoryReleased)) {
            waitingForMemory = true;
            gate.waitingForMemory(true);
            return false;
        }
        reserved = size;
        waitingForMemory = false;
        gate.waitingForMemory(false);
        return true;
    }

    /** From the releasing thread: try the waiting frame again on this connection's event loop. */
    private void memoryReleased() {
        ctx.executor().execute(() -> {
            if (!closed && ctx.channel().isActive()) {
                // decodes what is already buffered (the whole frame may be here) and reserves again
                try {
                    channelRead(ctx, Unpooled.EMPTY_BUFFER);
                    channelReadComplete(ctx);
                } catch (Exception e) {
                    ctx.fireExceptionCaught(e);
                }
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf) {
            metrics.bytesRead(((ByteBuf) msg).readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    // ByteToMessageDecoder asks for one more read when a read decoded nothing and autoRead is off;
    // a connection waiting for memory must not read on, or it would buffer its whole frame anyway.
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (waitingForMemory) {
            discardSomeReadBytes();
            ctx.fireChannelReadComplete();
            return;
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed = true;   // no new reservation from here; a frame already reserved may still complete
        memory.stopWaiting(onMemoryReleased);
        super.channelInactive(ctx);
        if (reserved > 0) {   // a frame the client never finished
            memory.release(reserved);
            reserved = 0;
        }
    }

    private void reject(ChannelHandlerContext ctx, int size) {
        rejected = true;
        log.warn("Closing connection from {}: request size {} is {} (socket.request.max.bytes = {})",
            ctx.channel().remoteAddress(), size, size < 0 ? "negative" : "too large", maxRequestBytes);
        ctx.close();
    }
}
