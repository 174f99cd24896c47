package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
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
 * <p>Stateful, one per connection: it holds the bytes of a partly received frame (in
 * {@link ByteToMessageDecoder}'s cumulation) and whether the connection was rejected.
 */
final class FrameDecoder extends ByteToMessageDecoder {

    static final int SIZE_BYTES = 4;

    private static final Logger log = LoggerFactory.getLogger(FrameDecoder.class);

    private final int maxRequestBytes;
    private final NetworkMetrics metrics;
    private boolean rejected;

    FrameDecoder(int maxRequestBytes, NetworkMetrics metrics) {
        this.maxRequestBytes = maxRequestBytes;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf) {
            metrics.bytesRead(((ByteBuf) msg).readableBytes());
        }
        super.channelRead(ctx, msg);
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
        if (in.readableBytes() - SIZE_BYTES < size) {
            return;
        }
        in.skipBytes(SIZE_BYTES);
        out.add(in.readRetainedSlice(size));
    }

    private void reject(ChannelHandlerContext ctx, int size) {
        rejected = true;
        log.warn("Closing connection from {}: request size {} is {} (socket.request.max.bytes = {})",
            ctx.channel().remoteAddress(), size, size < 0 ? "negative" : "too large", maxRequestBytes);
        ctx.close();
    }
}
