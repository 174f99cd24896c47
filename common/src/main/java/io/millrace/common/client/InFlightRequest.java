package io.millrace.common.client;

import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.RequestHeader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * A request sent on a connection and not yet answered, with the timer that gives up on it and the
 * lease its response is read into (null for a heap buffer of its own).
 */
record InFlightRequest(RequestHeader header, CompletableFuture<ApiMessage> result, ResponseLease lease,
                       ScheduledFuture<?> timeout) {
}
