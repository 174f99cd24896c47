package io.millrace.broker.cluster;

import io.millrace.common.protocol.Errors;

/** What became of one partition's reassignment that an operator asked for: NONE once started (or cancelled), or why not. */
public record ReassignmentOutcome(Errors error, String message) {

    static final ReassignmentOutcome STARTED = new ReassignmentOutcome(Errors.NONE, null);

    static ReassignmentOutcome failed(Errors error, String message) {
        return new ReassignmentOutcome(error, message);
    }
}
