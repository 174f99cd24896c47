package io.millrace.schemaregistry.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one aggregated HTTP request: checks its content type, hands it to the
 * {@link RegistryApi} and writes the JSON answer, or the error as
 * {@code {"error_code": 40401, "message": "..."}} with the error's status. This is the one place
 * exceptions become responses. It runs on the I/O executor, never on an event loop, because the
 * API waits for ZooKeeper. Stateless, so one instance serves every connection.
 */
@Sharable
public final class RegistryHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    public static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final Logger log = LoggerFactory.getLogger(RegistryHttpHandler.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RegistryApi api;
    private final RegistryMetrics metrics;

    public RegistryHttpHandler(RegistryApi api, RegistryMetrics metrics) {
        this.api = api;
        this.metrics = metrics;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess()) {
            writeError(ctx, RegistryError.MALFORMED_REQUEST.exception("Malformed HTTP request"), false);
            return;
        }
        try {
            checkContentType(request);
            byte[] body = ByteBufUtil.getBytes(request.content());
            ApiResponse response = api.handle(new ApiRequest(request.method().name(), request.uri(), body));
            // counted before the answer leaves, so a client that has its answer also sees it counted
            metrics.record(200, null);
            write(ctx, HttpResponseStatus.OK, response.body(), keepAlive);
        } catch (RegistryException e) {
            writeError(ctx, e, keepAlive);
        } catch (RuntimeException e) {
            log.error("Request {} {} failed", request.method(), request.uri(), e);
            writeError(ctx, RegistryError.INTERNAL_ERROR.exception("Internal server error: " + e), keepAlive);
        }
    }

    /** Writes {@code error} as a response; also what the size limit uses. */
    void writeError(ChannelHandlerContext ctx, RegistryException error, boolean keepAlive) {
        JsonNode body = JSON.createObjectNode().put("error_code", error.error().errorCode()).put("message", error.getMessage());
        metrics.record(error.error().httpStatus(), error.error());
        write(ctx, HttpResponseStatus.valueOf(error.error().httpStatus()), body, keepAlive);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private static void checkContentType(FullHttpRequest request) {
        String type = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
        if (type == null || request.content().readableBytes() == 0) {
            return;
        }
        String mime = type.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
        if (!mime.contains("json") && !mime.equals("application/octet-stream")) {
            throw RegistryError.UNSUPPORTED_MEDIA_TYPE.exception("HTTP 415 Unsupported Media Type: " + type
                + "; send " + CONTENT_TYPE + " or application/json");
        }
    }

    private static void write(ChannelHandlerContext ctx, HttpResponseStatus status, JsonNode body, boolean keepAlive) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("A JSON tree always serialises", e);
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE);
        HttpUtil.setContentLength(response, bytes.length);
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
