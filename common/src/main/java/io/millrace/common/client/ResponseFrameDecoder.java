package io.millrace.common.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteBuffer;

/**
 * Cuts a broker's responses out of the byte stream: a 4-byte big-endian size, then that many
 * bytes, passed on as a heap {@link ByteBuffer} of their own (position 0, limit the size). Each
 * byte is copied once, from the buffer a socket read filled into the frame's array; a megabyte's
 * fetch response is not first gathered in a growing buffer and then copied out of it. Parsed
 * fields may be views of the frame: it is never reused. One per connection (it holds a partial
 * frame); runs on the connection's event loop only.
 */
final class ResponseFrameDecoder extends ChannelInboundHandlerAdapter {

    private static final int SIZE_BYTES = 4;

    private final int maxFrameBytes;
    /** The size being read, a byte at a time when a read ends inside it. */
    private int size;
    private int sizeBytesRead;
    /** The frame being filled; null between frames. */
    private ByteBuffer frame;

    ResponseFrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            while (in.isReadable()) {
                if (frame == null && !readSize(in)) {
                    return;
                }
                int n = Math.min(in.readableBytes(), frame.remaining());
                in.readBytes(frame.array(), frame.arrayOffset() + frame.position(), n);
                frame.position(frame.position() + n);
                if (!frame.hasRemaining()) {
                    ByteBuffer complete = frame.flip();
                    frame = null;
                    ctx.fireChannelRead(complete);
                }
            }
        } finally {
            in.release();
        }
    }

    /** Reads the next frame's size; true once it is whole and the frame is allocated. */
    private boolean readSize(ByteBuf in) {
        if (sizeBytesRead == 0 && in.readableBytes() >= SIZE_BYTES) {
            size = in.readInt();
            sizeBytesRead = SIZE_BYTES;
        }
        while (sizeBytesRead < SIZE_BYTES && in.isReadable()) {
            size = (size << 8) | in.readUnsignedByte();
            sizeBytesRead++;
        }
        if (sizeBytesRead < SIZE_BYTES) {
            return false;
        }
        if (size < 0) {
            throw new CorruptedFrameException("Response frame has a negative size " + size);
        }
        if ((long) size + SIZE_BYTES > maxFrameBytes) {
            throw new TooLongFrameException("Response frame of " + size + " bytes exceeds the limit of " + maxFrameBytes);
        }
        frame = ByteBuffer.allocate(size);
        size = 0;
        sizeBytesRead = 0;
        return true;
    }
}
