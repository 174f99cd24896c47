package io.millrace.common.record;

import io.millrace.common.errors.InvalidRecordException;

/**
 * The batch-level codecs of record batch v2, with the ids the attributes' low three bits carry
 * and the names {@code compression.type} takes.
 */
public enum CompressionType {
    NONE(0, "none"),
    GZIP(1, "gzip"),
    SNAPPY(2, "snappy"),
    LZ4(3, "lz4"),
    ZSTD(4, "zstd");

    public final int id;
    public final String configName;

    CompressionType(int id, String configName) {
        this.id = id;
        this.configName = configName;
    }

    /** The codec for an attributes id; ids 5-7 are unassigned and make a batch invalid. */
    public static CompressionType forId(int id) {
        switch (id) {
            case 0: return NONE;
            case 1: return GZIP;
            case 2: return SNAPPY;
            case 3: return LZ4;
            case 4: return ZSTD;
            default: throw new InvalidRecordException("Unknown compression codec id " + id);
        }
    }

    /** The codec for a {@code compression.type} value, e.g. {@code "lz4"}. */
    public static CompressionType forName(String name) {
        for (CompressionType type : values()) {
            if (type.configName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown compression type " + name);
    }
}
