package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the byte stream into request frames: a 4-byte big-endian size, then that many bytes.
 * Emits each payload (size stripped) as a {@link ByteBuf} the request owns. A size below 0 or above
 * {@code socket.request.max.bytes} closes the connection and is logged at WARN with the client's
 * address: the stream can no longer be trusted, and reading on to skip a claimed 2 GiB would only feed
 * a broken or hostile client.
 *
 * <pre>
 * RequestFrame => size payload      size: INT32, the payload's length
 * e.g. 00 00 00 03 'a' 'b' 'c'  is one frame whose payload is "abc"
 * </pre>
 *
 * <p>No byte of a request is copied twice. A frame that one socket read holds whole is a retained
 * slice of the read's buffer. A frame that spans reads gets a pooled direct buffer of its size as soon
 * as that is known, and each read's bytes are copied into it once. (Gathering a large produce request
 * in a growing buffer, as a cumulating decoder does, copied each byte 1.5 times. Having the socket
 * read straight into the frame's buffer saved that copy too, but cost the kernel more than it saved:
 * its copy then wrote to memory not in the cache, where a read buffer used again and again is; see
 * docs/performance.md.)
 *
 * <p>As soon as a frame's size is known, the decoder reserves that many bytes in the broker's
 * {@link RequestMemory} ({@code queued.max.request.bytes}) before reading on; when they do not fit it
 * keeps the bytes read so far, stops reading from the socket ({@link ReadGate}), and decodes again when
 * memory is released. The reservation passes with the frame to the request, which gives it back when it
 * is released.
 *
 * <p>Stateful, one per connection (it holds a partly received frame); runs on the connection's event
 * loop only.
 */
final class FrameDecoder extends ChannelInboundHandlerAdapter {

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
    /** The size of the frame being received, -1 until its four bytes are read. */
    private int size = -1;
    /** The size's bytes read so far, when a read ended inside them. */
    private int sizeBytesRead;
    private int partialSize;
    /** The frame being filled across reads; null when none. */
    private ByteBuf frame;
    /** Bytes read and not yet decoded while the next frame waits for request memory; null when none. */
    private ByteBuf held;

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

    // hot path: a frame read whole is a recycled slice; a frame spanning reads allocates its buffer once
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        metrics.bytesRead(in.readableBytes());
        if (rejected) {
            in.release();
            return;
        }
        if (held != null) {   // read while waiting for memory: kept behind what is held, not copied
            in = ctx.alloc().compositeBuffer().addComponents(true, held, in);
            held = null;
        }
        decode(ctx, in);
    }

    /** Decodes what {@code in} holds, which it owns: releases it, or keeps it while memory is short. */
    private void decode(ChannelHandlerContext ctx, ByteBuf in) {
        boolean keep = false;
        try {
            while (!rejected) {
                if (frame == null) {
                    if (size < 0 && !readSize(ctx, in)) {
                        return;
                    }
                    if (reserved == 0 && size > 0 && !reserve(size)) {
                        held = in;
                        keep = true;
                        return;
                    }
                    if (in.readableBytes() >= size) {
                        fire(ctx, in.readRetainedSlice(size));
                        continue;
                    }
                    frame = ctx.alloc().directBuffer(size, size);
                }
                if (!in.isReadable()) {
                    return;
                }
                frame.writeBytes(in, Math.min(in.readableBytes(), frame.writableBytes()));
                if (!frame.isWritable()) {
                    ByteBuf complete = frame;
                    frame = null;
                    fire(ctx, complete);
                }
            }
        } finally {
            if (!keep) {
                in.release();
            }
        }
    }

    /** Reads the frame's size, possibly a byte at a time across reads; false until it is whole and allowed. */
    private boolean readSize(ChannelHandlerContext ctx, ByteBuf in) {
        if (sizeBytesRead == 0 && in.readableBytes() >= SIZE_BYTES) {
            partialSize = in.readInt();
            sizeBytesRead = SIZE_BYTES;
        }
        while (sizeBytesRead < SIZE_BYTES && in.isReadable()) {
            partialSize = (partialSize << 8) | in.readUnsignedByte();
            sizeBytesRead++;
        }
        if (sizeBytesRead < SIZE_BYTES) {
            return false;
        }
        int read = partialSize;
        sizeBytesRead = 0;
        partialSize = 0;
        if (read < 0 || read > maxRequestBytes) {
            reject(ctx, read);
            return false;
        }
        size = read;
        return true;
    }

    private void fire(ChannelHandlerContext ctx, ByteBuf payload) {
        reserved = 0;   // the request owns the reservation from here
        size = -1;
        ctx.fireChannelRead(payload);
    }

    private boolean reserve(int size) {
        if (closed || !memory.reserveOrWait(size, onMemoryReleased)) {
            waitingForMemory = true;
            gate.waitingForMemory(true);
            return false;
        }
        reserved = size;
        if (waitingForMemory) {
            waitingForMemory = false;
            gate.waitingForMemory(false);
        }
        return true;
    }

    /** From the releasing thread: try the waiting frame again on this connection's event loop. */
    private void memoryReleased() {
        ctx.executor().execute(() -> {
            if (!closed && ctx.channel().isActive() && held != null) {
                ByteBuf in = held;
                held = null;
                try {
                    decode(ctx, in);   // the whole frame may be here already
                    ctx.fireChannelReadComplete();
                } catch (RuntimeException e) {
                    ctx.fireExceptionCaught(e);
                }
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed = true;   // no new reservation from here; a frame already reserved may still complete
        memory.stopWaiting(onMemoryReleased);
        releaseBuffers();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseBuffers();
    }

    /** Drops a frame the client never finished, with its reservation, and bytes held back. */
    private void releaseBuffers() {
        if (frame != null) {
            frame.release();
            frame = null;
        }
        if (held != null) {
            held.release();
            held = null;
        }
        if (reserved > 0) {
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
