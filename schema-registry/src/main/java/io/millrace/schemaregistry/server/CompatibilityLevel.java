package io.millrace.schemaregistry.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/**
 * The compatibility levels of Confluent's Schema Registry, checked with Avro's own
 * {@link SchemaCompatibility}. BACKWARD: consumers on the new schema read data written with the
 * old one (the new schema is the reader). FORWARD: consumers on the old schema read data written
 * with the new one (the old schema is the reader). FULL: both. The plain levels compare with the
 * latest version only, the TRANSITIVE ones with every version.
 */
public enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    private final boolean newReadsOld;
    private final boolean oldReadsNew;
    private final boolean transitive;

    CompatibilityLevel(boolean newReadsOld, boolean oldReadsNew, boolean transitive) {
        this.newReadsOld = newReadsOld;
        this.oldReadsNew = oldReadsNew;
        this.transitive = transitive;
    }

    public static String[] names() {
        return Arrays.stream(values()).map(Enum::name).toArray(String[]::new);
    }

    /** The level called {@code name}, or null when there is none. */
    public static CompatibilityLevel forName(String name) {
        for (CompatibilityLevel level : values()) {
            if (level.name().equalsIgnoreCase(name)) {
                return level;
            }
        }
        return null;
    }

    /**
     * Why {@code candidate} may not follow {@code previous} (oldest first) at this level; empty
     * when it may. Plain levels look at the last of {@code previous} only.
     */
    public List<String> incompatibilities(Schema candidate, List<Schema> previous) {
        List<String> reasons = new ArrayList<>();
        if (previous.isEmpty() || this == NONE) {
            return reasons;
        }
        List<Schema> compared = transitive ? previous : previous.subList(previous.size() - 1, previous.size());
        for (Schema old : compared) {
            if (newReadsOld) {
                reasons.addAll(check(candidate, old, "the new schema cannot read data written with an earlier one"));
            }
            if (oldReadsNew) {
                reasons.addAll(check(old, candidate, "an earlier schema cannot read data written with the new one"));
            }
        }
        return reasons;
    }

    private static List<String> check(Schema reader, Schema writer, String direction) {
        SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        List<String> reasons = new ArrayList<>();
        if (result.getType() == SchemaCompatibilityType.COMPATIBLE) {
            return reasons;
        }
        for (Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
            reasons.add(direction + ": " + incompatibility.getType() + " at " + incompatibility.getLocation()
                + ": " + incompatibility.getMessage());
        }
        if (reasons.isEmpty()) {
            reasons.add(direction + ": " + result.getDescription());
        }
        return reasons;
    }
}
