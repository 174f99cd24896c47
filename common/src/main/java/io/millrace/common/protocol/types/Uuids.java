package io.millrace.common.protocol.types;

import java.util.UUID;

/** UUID values with a meaning in the protocol. */
public final class Uuids {

    /** The all-zero UUID: "no topic id". Millrace topics have no ids, so it is what the broker sends. */
    public static final UUID ZERO = new UUID(0L, 0L);

    private Uuids() {
    }
}
