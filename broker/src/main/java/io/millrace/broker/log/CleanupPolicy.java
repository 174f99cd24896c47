package io.millrace.broker.log;

import io.millrace.common.config.ConfigException;
import java.util.ArrayList;
import java.util.List;

/**
 * A topic's {@code cleanup.policy}, Kafka's comma-separated list of {@code delete} (retention
 * removes old segments) and {@code compact} (the cleaner keeps each key's last record).
 */
public record CleanupPolicy(boolean delete, boolean compact) {

    /** Parses a policy list, refusing an empty one and any name but Kafka's two, naming {@code setting}. */
    public static CleanupPolicy parse(String setting, String value) {
        boolean delete = false;
        boolean compact = false;
        for (String part : value.replace("[", "").replace("]", "").split(",")) {
            String policy = part.trim();
            if (policy.equals(LogConfig.CLEANUP_POLICY_DELETE)) {
                delete = true;
            } else if (policy.equals(LogConfig.CLEANUP_POLICY_COMPACT)) {
                compact = true;
            } else {
                throw new ConfigException(setting, value, "a cleanup policy is a list of " + LogConfig.CLEANUP_POLICY_COMPACT
                    + " and " + LogConfig.CLEANUP_POLICY_DELETE + "; '" + policy + "' is neither");
            }
        }
        return new CleanupPolicy(delete, compact);
    }

    /** As Kafka prints it: {@code delete}, {@code compact} or {@code compact,delete}. */
    @Override
    public String toString() {
        List<String> names = new ArrayList<>(2);
        if (compact) {
            names.add(LogConfig.CLEANUP_POLICY_COMPACT);
        }
        if (delete) {
            names.add(LogConfig.CLEANUP_POLICY_DELETE);
        }
        return String.join(",", names);
    }
}
