package io.millrace.common.protocol.types;

import java.util.UUID;

/** UUID values with a meaning in the protocol. */
public final class Uuids {

    /** The all-zero UUID: "no topic id" (what a request names when it names a topic by name). */
    public static final UUID ZERO = new UUID(0L, 0L);

    private Uuids() {
    }
}
