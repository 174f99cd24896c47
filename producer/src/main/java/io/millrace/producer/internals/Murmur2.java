package io.millrace.producer.internals;

/**
 * The 32-bit MurmurHash2 variant Kafka's default partitioner hashes keys with (seed
 * {@code 0x9747b28c}, little-endian 4-byte blocks), so that Millrace places keys exactly where
 * Kafka's clients do. Stateless and thread-safe.
 */
public final class Murmur2 {

    private static final int SEED = 0x9747b28c;
    private static final int M = 0x5bd1e995;
    private static final int R = 24;

    private Murmur2() {
    }

    /** The hash of the whole array. */
    public static int hash(byte[] data) {
        int length = data.length;
        int h = SEED ^ length;
        int blocks = length / 4;
        for (int i = 0; i < blocks; i++) {
            int at = i * 4;
            int k = (data[at] & 0xff) | (data[at + 1] & 0xff) << 8 | (data[at + 2] & 0xff) << 16 | (data[at + 3] & 0xff) << 24;
            k *= M;
            k ^= k >>> R;
            k *= M;
            h *= M;
            h ^= k;
        }
        h = mixTail(data, blocks * 4, length % 4, h);
        h ^= h >>> 13;
        h *= M;
        h ^= h >>> 15;
        return h;
    }

    // the 1-3 bytes after the last whole block, highest first, as the reference implementation falls through
    private static int mixTail(byte[] data, int start, int remaining, int h) {
        if (remaining == 0) {
            return h;
        }
        if (remaining == 3) {
            h ^= (data[start + 2] & 0xff) << 16;
        }
        if (remaining >= 2) {
            h ^= (data[start + 1] & 0xff) << 8;
        }
        h ^= data[start] & 0xff;
        return h * M;
    }

    /**
     * Clears the sign bit: a non-negative number for a modulo. Not {@code Math.abs}, which stays
     * negative for {@code Integer.MIN_VALUE}; this is what Kafka does, so placements agree.
     */
    public static int toPositive(int number) {
        return number & 0x7fffffff;
    }
}
