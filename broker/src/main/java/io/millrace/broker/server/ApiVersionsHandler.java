package io.millrace.broker.server;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ApiVersionsResponse;

/**
 * Lists exactly the APIs and versions the dispatcher routes ({@link io.millrace.common.protocol.ApiKey}).
 * Unsupported ApiVersions versions never get here: the dispatcher answers them at version 0.
 */
final class ApiVersionsHandler implements ApiHandler {

    private static final ApiVersionsResponse SUPPORTED = ApiVersionsResponse.supported(Errors.NONE, 0);

    @Override
    public void handle(Request request) {
        request.respond(SUPPORTED);
    }
}
