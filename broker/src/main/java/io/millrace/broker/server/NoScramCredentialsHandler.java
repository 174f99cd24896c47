package io.millrace.broker.server;

import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AlterUserScramCredentialsRequest;
import io.millrace.common.protocol.message.AlterUserScramCredentialsResponse;
import io.millrace.common.protocol.message.DescribeUserScramCredentialsRequest;
import io.millrace.common.protocol.message.DescribeUserScramCredentialsResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The SCRAM credential APIs on a broker that authenticates no client. Millrace has no SASL
 * listener, so no user has a credential: DescribeUserScramCredentials of every user gets no results
 * ({@code kafka-configs --describe --entity-type users} prints none, as a Kafka broker where none
 * is set), and of named users RESOURCE_NOT_FOUND for each (DUPLICATE_RESOURCE for a name given twice),
 * as Kafka answers for users without credentials. AlterUserScramCredentials stores nothing: an
 * upsertion is refused with UNSUPPORTED_SASL_MECHANISM saying why, so that no credential looks set
 * that could never be used, and a deletion finds nothing to delete, RESOURCE_NOT_FOUND as on Kafka.
 */
final class NoScramCredentialsHandler implements ApiHandler {

    static final String REFUSAL = "Millrace does not authenticate clients (no SASL listener): SCRAM credentials cannot be set";

    @Override
    public void handle(Request request) {
        request.respond(answer(request.body()));
    }

    private static ApiMessage answer(ApiMessage body) {
        return switch (body.apiKey()) {
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> describe((DescribeUserScramCredentialsRequest) body);
            case ALTER_USER_SCRAM_CREDENTIALS -> alter((AlterUserScramCredentialsRequest) body);
            default -> throw new IllegalArgumentException("not a SCRAM credentials request: " + body.apiKey());
        };
    }

    private static DescribeUserScramCredentialsResponse describe(DescribeUserScramCredentialsRequest request) {
        List<DescribeUserScramCredentialsResponse.Result> results = new ArrayList<>();
        if (request.users() != null) {
            Set<String> seen = new LinkedHashSet<>();
            Set<String> duplicates = new HashSet<>();
            for (String user : request.users()) {
                if (!seen.add(user)) {
                    duplicates.add(user);
                }
            }
            for (String user : seen) {
                results.add(duplicates.contains(user)
                    ? result(user, Errors.DUPLICATE_RESOURCE, "Cannot describe SCRAM credentials for the same user twice in a "
                        + "single request: " + user)
                    : result(user, Errors.RESOURCE_NOT_FOUND, "Attempt to describe a user credential that does not exist: "
                        + user));
            }
        }
        return new DescribeUserScramCredentialsResponse(0, Errors.NONE.code(), null, results);
    }

    private static DescribeUserScramCredentialsResponse.Result result(String user, Errors error, String message) {
        return new DescribeUserScramCredentialsResponse.Result(user, error.code(), message, List.of());
    }

    /** One result per user named, the upsertion's refusal winning over a deletion's. */
    private static AlterUserScramCredentialsResponse alter(AlterUserScramCredentialsRequest request) {
        Map<String, AlterUserScramCredentialsResponse.Result> results = new LinkedHashMap<>();
        for (AlterUserScramCredentialsRequest.Deletion deletion : request.deletions()) {
            results.put(deletion.name(), new AlterUserScramCredentialsResponse.Result(deletion.name(),
                Errors.RESOURCE_NOT_FOUND.code(), "Attempt to delete a user credential that does not exist: " + deletion.name()));
        }
        for (AlterUserScramCredentialsRequest.Upsertion upsertion : request.upsertions()) {
            results.put(upsertion.name(), new AlterUserScramCredentialsResponse.Result(upsertion.name(),
                Errors.UNSUPPORTED_SASL_MECHANISM.code(), REFUSAL));
        }
        return new AlterUserScramCredentialsResponse(0, List.copyOf(results.values()));
    }
}
