package io.millrace.broker.cluster;

import io.millrace.common.protocol.Errors;

/**
 * What became of one partition's election that an operator asked for: NONE with the leader written,
 * or the reason there is none ({@code leader} is then {@link ClusterSnapshot#NO_LEADER}).
 */
public record ElectionOutcome(Errors error, int leader) {

    static ElectionOutcome elected(int leader) {
        return new ElectionOutcome(Errors.NONE, leader);
    }

    static ElectionOutcome failed(Errors error) {
        return new ElectionOutcome(error, ClusterSnapshot.NO_LEADER);
    }
}
