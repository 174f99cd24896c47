package io.millrace.broker.server;

/** Handles the requests of one API; runs on a request thread and must not block it for long. */
@FunctionalInterface
public interface ApiHandler {

    /** Completes {@code request} exactly once, now or later, from any thread. */
    void handle(Request request);
}
