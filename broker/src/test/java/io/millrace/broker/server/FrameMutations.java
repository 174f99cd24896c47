package io.millrace.broker.server;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The ways {@link FrameFuzzTest} damages a request frame (a 4-byte size prefix, then the request):
 * bit flips, truncation, edge values over length and count fields, random api keys and versions,
 * random bodies, spliced bytes, a size prefix that lies, or pure noise. Stateless; the caller's
 * {@link Random} makes a run repeatable from its seed.
 */
final class FrameMutations {

    private FrameMutations() {
    }

    /** A frame to send and whether its size prefix matches its bytes (so that a probe can follow). */
    record Frame(byte[] bytes, boolean wellFramed) {
    }

    /** One of {@code seeds}, copied, then changed in one of eight ways or (one time in nine) left intact. */
    static Frame mutate(Random random, List<byte[]> seeds, int maxRequest) {
        byte[] frame = seeds.get(random.nextInt(seeds.size())).clone();
        return switch (random.nextInt(9)) {
            case 0 -> new Frame(flipBits(random, frame), true);
            case 1 -> new Frame(truncate(random, frame), true);
            case 2 -> new Frame(overwriteWithEdgeValues(random, frame), true);
            case 3 -> new Frame(randomHeader(random, frame), true);
            case 4 -> new Frame(randomBody(random, frame), true);
            case 5 -> new Frame(splice(random, frame), true);
            case 6 -> wrongLength(random, frame, maxRequest);
            case 7 -> new Frame(noise(random), false);
            default -> new Frame(frame, true); // an intact request keeps some connections going
        };
    }

    private static byte[] flipBits(Random random, byte[] frame) {
        int flips = 1 + random.nextInt(8);
        for (int i = 0; i < flips; i++) {
            int pos = 4 + random.nextInt(frame.length - 4);
            frame[pos] ^= (byte) (1 << random.nextInt(8));
        }
        return frame;
    }

    private static byte[] truncate(Random random, byte[] frame) {
        return withSize(Arrays.copyOf(frame, 4 + random.nextInt(frame.length - 4)));
    }

    /** Values that trip length and count fields: -1, 0, min, max, and varint continuation bytes. */
    private static byte[] overwriteWithEdgeValues(Random random, byte[] frame) {
        byte[] edges = {0, (byte) 0xff, (byte) 0x7f, (byte) 0x80, 1};
        int writes = 1 + random.nextInt(4);
        for (int i = 0; i < writes; i++) {
            frame[4 + random.nextInt(frame.length - 4)] = edges[random.nextInt(edges.length)];
        }
        return frame;
    }

    private static byte[] randomHeader(Random random, byte[] frame) {
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        if (random.nextBoolean()) {
            buffer.putShort(4, (short) (random.nextBoolean() ? random.nextInt(70) : random.nextInt()));
        }
        if (random.nextBoolean()) {
            buffer.putShort(6, (short) (random.nextBoolean() ? random.nextInt(16) : random.nextInt()));
        }
        return frame;
    }

    private static byte[] randomBody(Random random, byte[] frame) {
        int keep = Math.min(frame.length, 12 + random.nextInt(Math.max(1, frame.length - 12)));
        byte[] tail = new byte[random.nextInt(300)];
        random.nextBytes(tail);
        byte[] out = Arrays.copyOf(frame, keep + tail.length);
        System.arraycopy(tail, 0, out, keep, tail.length);
        return withSize(out);
    }

    private static byte[] splice(Random random, byte[] frame) {
        int from = 4 + random.nextInt(frame.length - 4);
        int length = random.nextInt(Math.min(64, frame.length - from) + 1);
        int at = 4 + random.nextInt(frame.length - 4);
        byte[] out = new byte[frame.length + length];
        System.arraycopy(frame, 0, out, 0, at);
        System.arraycopy(frame, from, out, at, length);
        System.arraycopy(frame, at, out, at + length, frame.length - at);
        return withSize(out);
    }

    private static Frame wrongLength(Random random, byte[] frame, int maxRequest) {
        int size = switch (random.nextInt(4)) {
            case 0 -> -1 - random.nextInt(1000);
            case 1 -> maxRequest + 1 + random.nextInt(1_000_000);
            case 2 -> Math.max(0, frame.length - 4 - 1 - random.nextInt(frame.length - 4));
            default -> frame.length - 4 + 1 + random.nextInt(100);
        };
        ByteBuffer.wrap(frame).putInt(0, size);
        return new Frame(frame, false);
    }

    private static byte[] noise(Random random) {
        byte[] bytes = new byte[4 + random.nextInt(200)];
        random.nextBytes(bytes);
        if (random.nextBoolean()) {
            ByteBuffer.wrap(bytes).putInt(0, bytes.length - 4);
        }
        return bytes;
    }

    private static byte[] withSize(byte[] frame) {
        ByteBuffer.wrap(frame).putInt(0, frame.length - 4);
        return frame;
    }
}
