package io.millrace.common.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;

/**
 * Cuts a broker's responses out of the byte stream: a 4-byte big-endian size, then that many
 * bytes, passed on as a {@link ByteBuffer} of their own (position 0, limit the size). Parsed fields
 * may be views of the frame: it is never reused while the response is in use.
 *
 * <p>A frame is a new heap array, filled from the socket reads' buffers with each byte copied once;
 * a megabyte's fetch response is not first gathered in a growing buffer and then copied out of it.
 * When the request that the frame answers carries a {@link ResponseLease} (known from the
 * correlation id that follows the size), the frame is the lease's pooled direct buffer instead, and
 * {@link FrameReadAllocator} has the socket read the rest of the frame straight into it: no zeroing,
 * no copy. One per connection (it holds a partial frame); runs on the connection's event loop only.
 */
final class ResponseFrameDecoder extends ChannelInboundHandlerAdapter {

    private static final int HEADER_BYTES = 8;
    private static final int SIZE_BYTES = 4;
    /** Below this a read straight into the frame saves less than the wrapper costs. */
    private static final int MIN_DIRECT_READ_BYTES = 16 * 1024;

    private final int maxFrameBytes;
    /** The lease of the request a correlation id names, or null for a heap frame. */
    private final IntFunction<ResponseLease> leases;
    /** The size and correlation id being read, a byte at a time when a read ends inside them. */
    private long header;
    private int headerBytesRead;
    /** The frame being filled; null between frames. */
    private ByteBuffer frame;
    /** The buffer last handed to a socket read that fills the frame in place; null when none. */
    private ByteBuf inPlace;

    ResponseFrameDecoder(int maxFrameBytes, IntFunction<ResponseLease> leases) {
        this.maxFrameBytes = maxFrameBytes;
        this.leases = leases;
    }

    /**
     * Where the next socket read should land, when the frame being filled is a direct buffer with
     * enough left: a buffer over the frame's unfilled part. Null otherwise (read into any buffer).
     */
    ByteBuf readTarget() {
        inPlace = null;
        if (frame != null && frame.isDirect() && frame.remaining() >= MIN_DIRECT_READ_BYTES) {
            inPlace = Unpooled.wrappedBuffer(frame.slice()).clear();
        }
        return inPlace;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (in == inPlace) {
                inPlace = null;
                frame.position(frame.position() + in.readableBytes());
                fireIfComplete(ctx);
                return;
            }
            while (in.isReadable()) {
                if (frame == null && !readHeader(in)) {
                    return;
                }
                int n = Math.min(in.readableBytes(), frame.remaining());
                if (frame.hasArray()) {
                    in.readBytes(frame.array(), frame.arrayOffset() + frame.position(), n);
                } else {
                    in.readBytes(frame.duplicate().limit(frame.position() + n));
                }
                frame.position(frame.position() + n);
                fireIfComplete(ctx);
            }
        } finally {
            in.release();
        }
    }

    private void fireIfComplete(ChannelHandlerContext ctx) {
        if (!frame.hasRemaining()) {
            ByteBuffer complete = frame.flip();
            frame = null;
            ctx.fireChannelRead(complete);
        }
    }

    /** Reads the next frame's size and correlation id; true once the frame is allocated. */
    private boolean readHeader(ByteBuf in) {
        if (headerBytesRead == 0 && in.readableBytes() >= SIZE_BYTES) {
            header = in.readInt();
            headerBytesRead = SIZE_BYTES;
            checkSize((int) header);
        }
        while (headerBytesRead < SIZE_BYTES && in.isReadable()) {
            header = (header << 8) | in.readUnsignedByte();
            if (++headerBytesRead == SIZE_BYTES) {
                checkSize((int) header);
            }
        }
        if (headerBytesRead < SIZE_BYTES) {
            return false;
        }
        int size = (int) (header >>> (8 * (headerBytesRead - SIZE_BYTES)));
        if (size < HEADER_BYTES - SIZE_BYTES) {
            // too short to name a request: NodeConnection turns it down
            frame = ByteBuffer.allocate(size);
            header = 0;
            headerBytesRead = 0;
            return true;
        }
        while (headerBytesRead < HEADER_BYTES && in.isReadable()) {
            header = (header << 8) | in.readUnsignedByte();
            headerBytesRead++;
        }
        if (headerBytesRead < HEADER_BYTES) {
            return false;
        }
        int correlationId = (int) header;
        ResponseLease lease = leases.apply(correlationId);
        frame = lease == null ? ByteBuffer.allocate(size) : lease.allocate(size);
        frame.putInt(correlationId);
        header = 0;
        headerBytesRead = 0;
        return true;
    }

    private void checkSize(int size) {
        if (size < 0) {
            throw new CorruptedFrameException("Response frame has a negative size " + size);
        }
        if ((long) size + SIZE_BYTES > maxFrameBytes) {
            throw new TooLongFrameException("Response frame of " + size + " bytes exceeds the limit of " + maxFrameBytes);
        }
    }
}
