package io.millrace.broker.log;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The log cleaner's map from a record key to the offset of its last record, in memory fixed when
 * it is made: each key is kept as its 128-bit MD5 digest (Kafka's cleaner does the same), so a
 * key of any length costs 24 bytes with its offset. Open addressing with linear probing; the map
 * is full at nine entries in ten slots, after which {@link #put} refuses new keys.
 *
 * <p>Two keys with one digest would make the older key's last record look superseded; at 128 bits
 * that takes about 2^64 keys. Not thread-safe: one per cleaning pass.
 */
final class KeyOffsetMap {

    static final int BYTES_PER_ENTRY = 24;
    private static final double LOAD_FACTOR = 0.9;
    private static final long EMPTY = -1L;

    private final long[] high;
    private final long[] low;
    private final long[] offsets;
    private final int maxEntries;
    private final MessageDigest md5;
    private final byte[] digest = new byte[16];
    private int entries;
    private long lastHigh;
    private long lastLow;

    /** A map for at most {@code keys} keys, in at most {@code memoryBytes} (at least 16 slots). */
    KeyOffsetMap(long keys, long memoryBytes) {
        long slots = Math.max(16, Math.min(memoryBytes / BYTES_PER_ENTRY, (long) (keys / LOAD_FACTOR) + 1));
        int size = (int) Math.min(slots, Integer.MAX_VALUE - 16);
        this.high = new long[size];
        this.low = new long[size];
        this.offsets = new long[size];
        Arrays.fill(offsets, EMPTY);
        this.maxEntries = (int) (size * LOAD_FACTOR);
        try {
            this.md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has MD5", e);
        }
    }

    /**
     * Records {@code offset} as the last offset of {@code key} (its remaining bytes, not consumed).
     * Returns false, recording nothing, when the key is new and the map is full.
     */
    boolean put(ByteBuffer key, long offset) {
        int slot = find(key);
        if (offsets[slot] == EMPTY) {
            if (entries >= maxEntries) {
                return false;
            }
            high[slot] = lastHigh;
            low[slot] = lastLow;
            entries++;
        }
        offsets[slot] = offset;
        return true;
    }

    /** The last offset recorded for {@code key}, or -1. */
    long get(ByteBuffer key) {
        return offsets[find(key)];
    }

    /** The slot holding the key's digest, or the empty slot where it would go. */
    private int find(ByteBuffer key) {
        md5.update(key.duplicate());
        try {
            md5.digest(digest, 0, digest.length);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
        ByteBuffer bytes = ByteBuffer.wrap(digest);
        lastHigh = bytes.getLong();
        lastLow = bytes.getLong();
        int slot = (int) Long.remainderUnsigned(lastHigh ^ lastLow, offsets.length);
        while (offsets[slot] != EMPTY && (high[slot] != lastHigh || low[slot] != lastLow)) {
            slot = slot + 1 == offsets.length ? 0 : slot + 1;
        }
        return slot;
    }
}
