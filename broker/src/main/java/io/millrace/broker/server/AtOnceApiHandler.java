package io.millrace.broker.server;

/**
 * An {@link ApiHandler} that can tell, before handling a request, that it would complete it at
 * once without waiting: such a request is then handled on the network thread that read it,
 * sparing it the hand-off to a request thread and back
 * ({@link io.millrace.broker.network.RequestHandler#handleOnNetworkThread}). Answering is the same
 * {@link #handle} either way, so a request answers the same on both paths.
 */
interface AtOnceApiHandler extends ApiHandler {

    /**
     * Whether {@link #handle} would complete {@code request} before returning, in a few microseconds
     * and without waiting on disk, on another thread's lock or on another request. Called on a
     * network thread, so it must be quick and never wait itself; false is always a safe answer.
     */
    boolean completesAtOnce(Request request);
}
