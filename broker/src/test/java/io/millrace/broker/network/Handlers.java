package io.millrace.broker.network;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Request handlers for tests. */
final class Handlers {

    private Handlers() {
    }

    /** Answers with the request's own bytes, zero-copy: the response holds a retained duplicate of the payload. */
    static final RequestHandler ECHO = (context, payload) -> context.sendResponse(ResponseSend.of(payload.retainedDuplicate()));

    /** A request a {@link Holding} handler kept, with its payload read as text. */
    static final class Held {
        final RequestContext context;
        final String text;

        Held(RequestContext context, String text) {
            this.context = context;
            this.text = text;
        }

        /** Echoes the request's text. */
        void echo() {
            context.sendResponse(ResponseSend.of(context.alloc().buffer().writeBytes(text.getBytes(StandardCharsets.UTF_8))));
        }
    }

    /** Completes nothing itself: it queues every request for the test to complete. */
    static final class Holding implements RequestHandler {
        private final BlockingQueue<Held> held = new LinkedBlockingQueue<>();

        @Override
        public void handle(RequestContext context, ByteBuf payload) {
            held.add(new Held(context, payload.toString(StandardCharsets.UTF_8)));
        }

        /** The next request handed to the handler, waiting up to 10 s. */
        Held take() throws InterruptedException {
            Held next = held.poll(10, TimeUnit.SECONDS);
            if (next == null) {
                throw new AssertionError("No request reached the handler within 10 s");
            }
            return next;
        }

        /** The next request if one reached the handler already. */
        Held poll() {
            return held.poll();
        }
    }
}
