package io.millrace.broker.server;

import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AlterClientQuotasRequest;
import io.millrace.common.protocol.message.AlterClientQuotasResponse;
import io.millrace.common.protocol.message.DescribeClientQuotasRequest;
import io.millrace.common.protocol.message.DescribeClientQuotasResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The client quota APIs on a broker without quotas. Millrace throttles no client, so there is no
 * quota to describe: a well-formed DescribeClientQuotas gets no entries (`kafka-configs --describe
 * --entity-type users`/`clients` prints none, as a Kafka broker where none is set), a malformed
 * filter INVALID_REQUEST, as on Kafka. AlterClientQuotas is refused for every entity with
 * INVALID_REQUEST saying why, storing nothing: a quota that would not be enforced must not look set.
 */
final class NoQuotasHandler implements ApiHandler {

    static final String REFUSAL = "Millrace does not throttle clients: client quotas cannot be set";
    private static final Set<String> ENTITY_TYPES = Set.of("user", "client-id", "ip");

    @Override
    public void handle(Request request) {
        request.respond(answer(request.body()));
    }

    private static ApiMessage answer(ApiMessage body) {
        return switch (body.apiKey()) {
            case DESCRIBE_CLIENT_QUOTAS -> describe((DescribeClientQuotasRequest) body);
            case ALTER_CLIENT_QUOTAS -> new AlterClientQuotasResponse(0, ((AlterClientQuotasRequest) body).entries().stream()
                .map(e -> new AlterClientQuotasResponse.Entry(Errors.INVALID_REQUEST.code(), REFUSAL, e.entity())).toList());
            default -> throw new IllegalArgumentException("not a quota request: " + body.apiKey());
        };
    }

    private static DescribeClientQuotasResponse describe(DescribeClientQuotasRequest request) {
        String invalid = invalidFilter(request.components());
        return invalid == null ? new DescribeClientQuotasResponse(0, Errors.NONE.code(), null, List.of())
            : new DescribeClientQuotasResponse(0, Errors.INVALID_REQUEST.code(), invalid, null);
    }

    /** Why the filter is not one Kafka accepts, or null. */
    private static String invalidFilter(List<DescribeClientQuotasRequest.Component> components) {
        Set<String> seen = new HashSet<>();
        for (DescribeClientQuotasRequest.Component c : components) {
            if (!ENTITY_TYPES.contains(c.entityType())) {
                return "Custom entity type '" + c.entityType() + "' not supported";
            }
            if (!seen.add(c.entityType())) {
                return "Duplicate " + c.entityType() + " filter component entity type";
            }
            if (c.matchType() < DescribeClientQuotasRequest.MATCH_EXACT || c.matchType() > DescribeClientQuotasRequest.MATCH_ANY) {
                return "Unknown match type " + c.matchType();
            }
            if (c.matchType() == DescribeClientQuotasRequest.MATCH_EXACT && c.match() == null) {
                return "Exact match of " + c.entityType() + " without a name";
            }
        }
        return null;
    }
}
