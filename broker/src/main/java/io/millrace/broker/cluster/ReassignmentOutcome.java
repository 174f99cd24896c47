package io.millrace.broker.cluster;

import io.millrace.common.protocol.Errors;
import java.util.List;

/**
 * What became of one partition's reassignment that an operator asked for: NONE once started (or
 * cancelled), or why not.
 *
 * @param written the replica list the controller wrote for the partition (null when it wrote none)
 * @param end     the replica list the partition ends with once the move is over (null when it wrote none)
 */
public record ReassignmentOutcome(Errors error, String message, List<Integer> written, List<Integer> end) {

    static ReassignmentOutcome started(List<Integer> written, List<Integer> end) {
        return new ReassignmentOutcome(Errors.NONE, null, List.copyOf(written), List.copyOf(end));
    }

    public static ReassignmentOutcome failed(Errors error, String message) {
        return new ReassignmentOutcome(error, message, null, null);
    }

    /** Whether {@code snapshot} shows what was written, or the move already over. */
    boolean shownIn(ClusterSnapshot snapshot, io.millrace.common.TopicPartition tp) {
        if (error != Errors.NONE || written == null) {
            return true;
        }
        List<Integer> replicas = snapshot.topic(tp.topic()).map(t -> t.replicas(tp.partition())).orElse(List.of());
        return replicas.equals(written) || replicas.equals(end) && !snapshot.reassignments().containsKey(tp);
    }
}
