package io.millrace.hadoop.hive;

import java.util.List;

/**
 * What registering loaded hours in Hive came to, topic by topic: the hours each topic got as partitions,
 * or, for a topic whose registration failed, the error and the command that catches its table up. The
 * load it reports on is committed either way. Hours are labelled {@code yyyy-MM-ddTHH} (UTC), as in the
 * load's summary. Immutable.
 */
public record HiveRegistration(List<Registered> registered, List<Failed> failed) {

    /** A topic whose hours are partitions of its table now. */
    public record Registered(String topic, List<String> hours) {
    }

    /** A topic whose hours Hive did not get: why, and what to run to register them. */
    public record Failed(String topic, List<String> hours, String error, String repair) {
    }

    public HiveRegistration {
        registered = List.copyOf(registered);
        failed = List.copyOf(failed);
    }

    /** Whether any topic's registration failed. */
    public boolean anyFailed() {
        return !failed.isEmpty();
    }

    /** The command that prints every partition {@code topic} has on disk, to run in Hive after a failure. */
    public static String repairCommand(String topic) {
        return "bin/millrace hive-ddl --topic " + topic + " --partitions";
    }
}
