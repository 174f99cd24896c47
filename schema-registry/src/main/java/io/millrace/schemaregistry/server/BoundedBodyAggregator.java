package io.millrace.schemaregistry.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Netty's aggregator with the registry's answer to a body over {@code request.max.bytes}: 413
 * with a JSON error body like every other error. When the client announced the size and keeps
 * the connection alive, the connection stays open and the rest of the body is skipped;
 * otherwise it is closed after the answer, since its remaining bytes cannot be told from the
 * next request. One per connection: aggregation is per-connection state.
 */
final class BoundedBodyAggregator extends HttpObjectAggregator {

    private final RegistryHttpHandler handler;
    private final int maxBytes;

    BoundedBodyAggregator(int maxBytes, RegistryHttpHandler handler) {
        super(maxBytes);
        this.maxBytes = maxBytes;
        this.handler = handler;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        boolean keepAlive = !(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized);
        handler.writeError(ctx, RegistryError.PAYLOAD_TOO_LARGE.exception("Request body larger than "
            + maxBytes + " bytes (request.max.bytes)"), keepAlive);
    }
}
