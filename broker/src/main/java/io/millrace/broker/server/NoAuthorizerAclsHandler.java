package io.millrace.broker.server;

import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateAclsRequest;
import io.millrace.common.protocol.message.CreateAclsResponse;
import io.millrace.common.protocol.message.DeleteAclsRequest;
import io.millrace.common.protocol.message.DeleteAclsResponse;
import io.millrace.common.protocol.message.DescribeAclsResponse;
import java.util.Collections;
import java.util.List;

/**
 * The ACL APIs (DescribeAcls, CreateAcls, DeleteAcls) as a Kafka broker with no authorizer
 * configured answers them: SECURITY_DISABLED for the request, for each creation and for each
 * filter, changing nothing. Millrace has no authorizer, so every client may do everything; saying
 * so in Kafka's words lets `kafka-acls`, AdminClient's {@code describeAcls} and Kafka's
 * client-compatibility test tell "security is off" apart from "this broker is too old", which an
 * API missing from ApiVersions would say instead.
 */
final class NoAuthorizerAclsHandler implements ApiHandler {

    static final String MESSAGE = "No Authorizer is configured on the broker";

    @Override
    public void handle(Request request) {
        request.respond(answer(request.body()));
    }

    private static ApiMessage answer(ApiMessage body) {
        short disabled = Errors.SECURITY_DISABLED.code();
        return switch (body.apiKey()) {
            case DESCRIBE_ACLS -> new DescribeAclsResponse(0, disabled, MESSAGE, List.of());
            case CREATE_ACLS -> new CreateAclsResponse(0, Collections.nCopies(((CreateAclsRequest) body).creations().size(),
                new CreateAclsResponse.Result(disabled, MESSAGE)));
            case DELETE_ACLS -> new DeleteAclsResponse(0, Collections.nCopies(((DeleteAclsRequest) body).filters().size(),
                new DeleteAclsResponse.FilterResult(disabled, MESSAGE, List.of())));
            default -> throw new IllegalArgumentException("not an ACL request: " + body.apiKey());
        };
    }
}
