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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's {@link RequestHandler}: parses the request header and body and hands the request to
 * the handler of its API (one switch, {@link #route}). What it answers before any handler runs:
 * <ul>
 *   <li>an ApiVersions request of a version it does not know: UNSUPPORTED_VERSION with the supported
 *       ranges, written at version 0, so the client retries with a version from the list;</li>
 *   <li>any other unknown api key or unsupported version, or a malformed header or body: it closes
 *       the connection (there is no layout to answer in), logged at WARN with the client's address.</li>
 * </ul>
 * A handler that throws has its connection closed; nothing here ever reaches the event loop.
 */
public final class RequestDispatcher implements RequestHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestDispatcher.class);

    private final ApiHandlers handlers;
    private final RequestMetrics metrics;
    private final Time time;

    /** One handler per API. */
    public record ApiHandlers(ApiHandler apiVersions, ApiHandler metadata, ApiHandler produce, ApiHandler fetch,
                              ApiHandler listOffsets, ApiHandler createTopics, ApiHandler deleteTopics,
                              ApiHandler initProducerId, ApiHandler describeConfigs, ApiHandler findCoordinator,
                              ApiHandler joinGroup, ApiHandler syncGroup, ApiHandler heartbeat, ApiHandler leaveGroup,
                              ApiHandler offsetCommit, ApiHandler offsetFetch) {
    }

    RequestDispatcher(ApiHandlers handlers, RequestMetrics metrics, Time time) {
        this.handlers = handlers;
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

    /** The dispatch switch: one handler per API. */
    private void route(Request request) {
        ApiHandler handler = switch (request.api()) {
            case API_VERSIONS -> handlers.apiVersions();
            case METADATA -> handlers.metadata();
            case PRODUCE -> handlers.produce();
            case FETCH -> handlers.fetch();
            case LIST_OFFSETS -> handlers.listOffsets();
            case CREATE_TOPICS -> handlers.createTopics();
            case DELETE_TOPICS -> handlers.deleteTopics();
            case INIT_PRODUCER_ID -> handlers.initProducerId();
            case DESCRIBE_CONFIGS -> handlers.describeConfigs();
            case FIND_COORDINATOR -> handlers.findCoordinator();
            case JOIN_GROUP -> handlers.joinGroup();
            case SYNC_GROUP -> handlers.syncGroup();
            case HEARTBEAT -> handlers.heartbeat();
            case LEAVE_GROUP -> handlers.leaveGroup();
            case OFFSET_COMMIT -> handlers.offsetCommit();
            case OFFSET_FETCH -> handlers.offsetFetch();
            default -> throw new IllegalStateException(request.api() + " is not advertised, so handle() refuses it");
        };
        handler.handle(request);
    }

    private void completed(Request request) {
        if (request.closedConnection()) {
            metrics.closed(request.api());
        }
        metrics.completed(request.api(), time.nanoseconds() - request.context().receiveTimeNanos());
    }
}
