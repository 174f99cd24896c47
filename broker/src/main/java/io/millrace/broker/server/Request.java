package io.millrace.broker.server;

import io.millrace.broker.network.RequestContext;
import io.millrace.broker.network.ResponseSend;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.types.RecordsPayload;
import io.millrace.common.protocol.types.SegmentWriter.SegmentSink;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One parsed request and the way back to its client. Exactly one of {@link #respond},
 * {@link #respondFetch}, {@link #noResponse} or {@link #close} completes it, from any thread; later
 * calls are ignored, so a fetch that times out while an append completes it answers once.
 */
public final class Request {

    private static final int SIZE_PREFIX = 4;

    private final RequestContext context;
    private final RequestHeader header;
    private final ApiMessage body;
    private final Consumer<Request> onComplete;
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile boolean closedConnection;

    Request(RequestContext context, RequestHeader header, ApiMessage body, Consumer<Request> onComplete) {
        this.context = context;
        this.header = header;
        this.body = body;
        this.onComplete = onComplete;
    }

    public RequestHeader header() {
        return header;
    }

    public ApiKey api() {
        return header.api();
    }

    public short version() {
        return header.apiVersion();
    }

    @SuppressWarnings("unchecked")
    public <T extends ApiMessage> T body() {
        return (T) body;
    }

    public RequestContext context() {
        return context;
    }

    /** Whether the request was completed by closing the connection. */
    public boolean closedConnection() {
        return closedConnection;
    }

    public boolean isCompleted() {
        return completed.get();
    }

    /** Answers with {@code response} at the request's version. */
    public void respond(ApiMessage response) {
        respond(response, header.apiVersion());
    }

    /** Answers with {@code response} written at {@code version} (ApiVersions answers a newer client at 0). */
    public void respond(ApiMessage response, short version) {
        if (!complete()) {
            return;
        }
        ByteBuffer frame;
        try {
            frame = Frames.response(header.correlationId(), response, version);
        } catch (RuntimeException e) {
            // Completed above, so the caller's close() would be ignored: close here, or the
            // connection would wait forever for a response that cannot be written.
            closedConnection = true;
            context.closeConnection();
            throw e;
        }
        frame.position(SIZE_PREFIX); // ResponseSend writes the size itself
        context.sendResponse(ResponseSend.builder().add(frame).build());
    }

    /**
     * Answers a fetch with its records as file regions of the segment files (zero copy); records in
     * memory are added as buffers.
     */
    public void respondFetch(FetchResponse response) {
        if (!complete()) {
            return;
        }
        ResponseSend.Builder builder = ResponseSend.builder();
        try {
            response.writeFrame(header.correlationId(), header.apiVersion(), new FrameSink(builder));
        } catch (RuntimeException e) {
            builder.discard();
            context.closeConnection();
            throw e;
        }
        context.sendResponse(builder.build());
    }

    /** Completes without an answer (Produce with acks=0). */
    public void noResponse() {
        if (complete()) {
            context.noResponse();
        }
    }

    /** Completes by closing the connection, e.g. when the client must notice an acks=0 failure. */
    public void close() {
        closedConnection = true;
        if (complete()) {
            context.closeConnection();
        }
    }

    private boolean complete() {
        if (!completed.compareAndSet(false, true)) {
            return false;
        }
        onComplete.accept(this);
        return true;
    }

    @Override
    public String toString() {
        return header.api().displayName() + " v" + header.apiVersion() + " #" + header.correlationId() + " from "
            + context.connectionId() + " (" + header.clientId() + ")";
    }

    /** Turns the codec's segments into ResponseSend parts, dropping the size prefix. */
    private static final class FrameSink implements SegmentSink {
        private final ResponseSend.Builder builder;
        private boolean first = true;

        FrameSink(ResponseSend.Builder builder) {
            this.builder = builder;
        }

        @Override
        public void protocolBytes(ByteBuffer bytes) {
            if (first) {
                bytes.position(bytes.position() + SIZE_PREFIX);
                first = false;
            }
            if (bytes.hasRemaining()) {
                builder.add(bytes);
            }
        }

        @Override
        public void records(RecordsPayload records) {
            if (records instanceof FileSlicePayload file) {
                builder.addFile(file.slice().channel(), file.slice().position(), file.slice().sizeInBytes());
            } else {
                ByteBuffer copy = ByteBuffer.allocate(records.sizeInBytes());
                records.copyTo(copy);
                builder.add(copy.flip());
            }
        }
    }
}
