package io.millrace.broker.server;

import io.millrace.broker.network.RequestContext;
import io.millrace.broker.network.RequestHandler;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.InvalidRequestException;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.message.ApiMessages;
import io.millrace.common.protocol.message.ApiVersionsResponse;
import io.millrace.common.utils.Time;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's {@link RequestHandler}: parses the request header and body and hands the request to
 * the handler of its API (one per advertised API, checked when the dispatcher is built). What it answers before any handler runs:
 * <ul>
 *   <li>an ApiVersions request of a version it does not know: UNSUPPORTED_VERSION with the supported
 *       ranges, written at version 0, so the client retries with a version from the list;</li>
 *   <li>any other unknown api key or unsupported version, or a malformed header or body: it closes
 *       the connection (there is no layout to answer in), logged at WARN with the client's address.</li>
 * </ul>
 * A handler that throws has its connection closed.
 *
 * <p>Requests of an {@link AtOnceApiHandler}'s API are offered to it on the network thread that
 * read them ({@link #handleOnNetworkThread}); those it would complete at once are handled there.
 * Anything else about such a request, a malformed body included, is left to a request thread,
 * which parses it again and answers as above.
 */
public final class RequestDispatcher implements RequestHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    private final EnumMap<ApiKey, ApiHandler> handlers;
    /** By api key id, the handlers that may answer on a network thread; null elsewhere. */
    private final AtOnceApiHandler[] atOnce;
    private final RequestMetrics metrics;
    private final Time time;

    RequestDispatcher(Map<ApiKey, ApiHandler> handlers, RequestMetrics metrics, Time time) {
        for (ApiKey api : ApiKey.values()) {
            if (api.advertised() != handlers.containsKey(api)) {
                throw new IllegalArgumentException(api + (api.advertised() ? " is advertised but has no handler"
                    : " has a handler but is not advertised"));
            }
        }
        this.handlers = new EnumMap<>(handlers);
        this.atOnce = atOnceHandlers(this.handlers);
        this.metrics = metrics;
        this.time = time;
    }

    @Override
    public void handle(RequestContext context, ByteBuf payload) {
        ByteBuffer buffer = payload.nioBuffer();
        RequestHeader header = parseHeader(context, buffer);
        if (header == null) {
            return;
        }
        ApiKey api = header.api();
        // an api parsed but not advertised has no handler yet: refused like an unknown one
        if (api == null || !api.advertised() || !api.isVersionSupported(header.apiVersion())) {
            rejectUnsupported(context, header);
            return;
        }
        metrics.received(api, time.nanoseconds() - context.receiveTimeNanos());
        Request request = parseBody(context, header, buffer);
        if (request != null) {
            dispatch(request);
        }
    }

    @Override
    public boolean handleOnNetworkThread(RequestContext context, ByteBuf payload) {
        AtOnceApiHandler handler = atOnceHandler(payload);
        if (handler == null) {
            return false;
        }
        Request request = parseQuietly(context, payload.nioBuffer());
        if (request == null || !handler.completesAtOnce(request)) {
            return false;
        }
        metrics.received(request.api(), time.nanoseconds() - context.receiveTimeNanos());
        dispatch(request);
        return true;
    }

    private AtOnceApiHandler atOnceHandler(ByteBuf payload) {
        if (payload.readableBytes() < Short.BYTES) {
            return null;
        }
        int apiKey = payload.getShort(payload.readerIndex());
        return apiKey >= 0 && apiKey < atOnce.length ? atOnce[apiKey] : null;
    }

    /** The request, or null for anything {@link #handle} would refuse: it does so on a request thread. */
    private Request parseQuietly(RequestContext context, ByteBuffer buffer) {
        try {
            RequestHeader header = RequestHeader.parse(buffer);
            ApiKey api = header.api();
            if (api == null || !api.isVersionSupported(header.apiVersion())) {
                return null;
            }
            return new Request(context, header, ApiMessages.parseRequest(api, buffer, header.apiVersion()), this::completed);
        } catch (InvalidRequestException e) {
            return null;
        }
    }

    private static AtOnceApiHandler[] atOnceHandlers(Map<ApiKey, ApiHandler> handlers) {
        int size = handlers.keySet().stream().mapToInt(api -> api.id() + 1).max().orElse(0);
        AtOnceApiHandler[] byId = new AtOnceApiHandler[size];
        handlers.forEach((api, handler) -> {
            if (handler instanceof AtOnceApiHandler quick) {
                byId[api.id()] = quick;
            }
        });
        return byId;
    }

    private RequestHeader parseHeader(RequestContext context, ByteBuffer buffer) {
        try {
            return RequestHeader.parse(buffer);
        } catch (InvalidRequestException e) {
            metrics.rejected();
            LOG.warn("Closing {}: unreadable request header ({})", context.remoteAddress(), e.getMessage());
            context.closeConnection();
            return null;
        }
    }

    private void rejectUnsupported(RequestContext context, RequestHeader header) {
        metrics.rejected();
        if (header.api() == ApiKey.API_VERSIONS) {
            Request request = new Request(context, header, null, r -> { });
            request.respond(ApiVersionsResponse.unsupportedVersion(), (short) 0);
            return;
        }
        LOG.warn("Closing {} ({}): api key {} version {} is not supported", context.remoteAddress(), header.clientId(),
            header.apiKey(), header.apiVersion());
        context.closeConnection();
    }

    private Request parseBody(RequestContext context, RequestHeader header, ByteBuffer buffer) {
        ApiMessage body;
        try {
            body = ApiMessages.parseRequest(header.api(), buffer, header.apiVersion());
        } catch (InvalidRequestException e) {
            metrics.closed(header.api());
            LOG.warn("Closing {} ({}): malformed {} v{} request: {}", context.remoteAddress(), header.clientId(),
                header.api().displayName(), header.apiVersion(), e.getMessage());
            context.closeConnection();
            return null;
        }
        return new Request(context, header, body, this::completed);
    }

    private void dispatch(Request request) {
        try {
            route(request);
        } catch (RuntimeException e) {
            LOG.error("Closing the connection of {}: its handler failed", request, e);
            request.close();
        }
    }

    private void route(Request request) {
        handlers.get(request.api()).handle(request);
    }

    private void completed(Request request) {
        if (request.closedConnection()) {
            metrics.closed(request.api());
        }
        metrics.completed(request.api(), time.nanoseconds() - request.context().receiveTimeNanos());
    }
}
