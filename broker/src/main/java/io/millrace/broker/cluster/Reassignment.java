package io.millrace.broker.cluster;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A partition moving to a new replica list, as Kafka's KIP-455 keeps it beside the assignment:
 * while it moves, the partition's replicas are the target's followed by the original replicas the
 * target drops, {@code adding} the target's replicas the partition did not have and
 * {@code removing} the original ones the target does not keep. The move ends when every target
 * replica is in sync: the replicas become the target and the removed replicas delete their logs.
 * Immutable.
 */
public record Reassignment(List<Integer> adding, List<Integer> removing) {

    public Reassignment {
        adding = List.copyOf(adding);
        removing = List.copyOf(removing);
    }

    /**
     * The move from {@code original} to {@code target}: the replica list to write while it goes on,
     * and what it adds and removes.
     */
    static Moving start(List<Integer> original, List<Integer> target) {
        Set<Integer> all = new LinkedHashSet<>(target);
        all.addAll(original);
        List<Integer> adding = new ArrayList<>(target);
        adding.removeAll(original);
        List<Integer> removing = new ArrayList<>(original);
        removing.removeAll(target);
        return new Moving(List.copyOf(all), new Reassignment(adding, removing));
    }

    /** A replica list during a move, and the move. */
    record Moving(List<Integer> replicas, Reassignment reassignment) {
    }

    /** The replica list the move ends with: {@code replicas} without the ones being removed. */
    List<Integer> target(List<Integer> replicas) {
        List<Integer> target = new ArrayList<>(replicas);
        target.removeAll(removing);
        return target;
    }

    /** The replica list the partition had before the move: {@code replicas} without the ones being added. */
    List<Integer> original(List<Integer> replicas) {
        List<Integer> original = new ArrayList<>(replicas);
        original.removeAll(adding);
        return original;
    }
}
