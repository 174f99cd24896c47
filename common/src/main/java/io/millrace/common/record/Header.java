package io.millrace.common.record;

import java.util.Arrays;
import java.util.Objects;

/** A record header: a string key and an optional byte value. Immutable. */
public final class Header {

    private final String key;
    private final byte[] value;

    public Header(String key, byte[] value) {
        this.key = Objects.requireNonNull(key, "header key");
        this.value = value;
    }

    public String key() {
        return key;
    }

    /** The value, or null. The array is shared, not copied. */
    public byte[] value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Header)) {
            return false;
        }
        Header other = (Header) o;
        return key.equals(other.key) && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "Header(" + key + ", " + (value == null ? "null" : value.length + " bytes") + ")";
    }
}
