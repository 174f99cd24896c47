package io.millrace.common.compress;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.utils.ByteBufferOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream.BLOCKSIZE;
import net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits;
import org.junit.Test;
import org.xerial.snappy.SnappyOutputStream;

public class CompressionTest {

    private static final long SEED = 4_2024_07L;
    private static final CompressionType[] CODECS = CompressionType.values();

    static ByteBuffer compress(CompressionType type, byte[] data) {
        return compress(type, data, Compression.defaultLevel(type));
    }

    static ByteBuffer compress(CompressionType type, byte[] data, int level) {
        ByteBufferOutputStream out = new ByteBufferOutputStream(64);
        try (OutputStream codec = Compression.wrapForOutput(type, out, level)) {
            codec.write(data);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out.buffer().flip();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** Half text-like (compressible), half random (stored blocks in lz4). */
    private static byte[] data(int size, Random random) {
        byte[] data = new byte[size];
        random.nextBytes(data);
        for (int i = 0; i < size / 2; i++) {
            data[i] = (byte) ('a' + (i / 7) % 26);
        }
        return data;
    }

    @Test
    public void everyCodecRoundTripsSizesAroundItsBlockBoundaries() {
        Random random = new Random(SEED);
        int[] sizes = {0, 1, 1000, 16 * 1024, 32 * 1024 + 1, 65535, 65536, 65537, 300_000};
        for (CompressionType type : CODECS) {
            for (int size : sizes) {
                byte[] data = data(size, random);
                ByteBuffer compressed = compress(type, data);
                int position = compressed.position();
                assertArrayEquals(type + " " + size, data, bytes(Compression.decompress(type, compressed, size)));
                assertEquals("the source buffer does not move", position, compressed.position());
            }
        }
    }

    @Test
    public void theLimitAllowsExactlyMaxBytes() {
        byte[] data = data(100_000, new Random(SEED));
        for (CompressionType type : CODECS) {
            ByteBuffer compressed = compress(type, data);
            assertEquals(data.length, Compression.decompress(type, compressed, data.length).remaining());
            expectCorrupt(type + " one byte over", () -> Compression.decompress(type, compressed, data.length - 1));
        }
    }

    @Test
    public void aDecompressionBombStopsAtTheLimitWithoutInflatingTheRest() {
        byte[] zeros = new byte[32 << 20];
        for (CompressionType type : CODECS) {
            if (type == CompressionType.NONE) {
                continue;
            }
            ByteBuffer bomb = compress(type, zeros);
            long start = System.nanoTime();
            expectCorrupt(type.configName, () -> Compression.decompress(type, bomb, 1 << 20));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(type + " took " + millis + " ms", millis < 2_000);
        }
    }

    @Test
    public void nonDefaultLevelsRoundTrip() {
        byte[] data = data(200_000, new Random(SEED));
        int[][] levels = {{CompressionType.GZIP.id, 1}, {CompressionType.GZIP.id, 9}, {CompressionType.LZ4.id, 1},
            {CompressionType.LZ4.id, 17}, {CompressionType.ZSTD.id, -5}, {CompressionType.ZSTD.id, 19}};
        for (int[] level : levels) {
            CompressionType type = CompressionType.forId(level[0]);
            ByteBuffer compressed = compress(type, data, level[1]);
            assertArrayEquals(type + " " + level[1], data, bytes(Compression.decompress(type, compressed, data.length)));
        }
    }

    @Test
    public void levelsOutsideKafkasRangesAreRejected() {
        int[][] bad = {{CompressionType.GZIP.id, 0}, {CompressionType.GZIP.id, 10}, {CompressionType.LZ4.id, 0},
            {CompressionType.LZ4.id, 18}, {CompressionType.ZSTD.id, 23}};
        for (int[] level : bad) {
            try {
                Compression.wrapForOutput(CompressionType.forId(level[0]), new ByteBufferOutputStream(16), level[1]);
                fail(Arrays.toString(level));
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains("Level"));
            }
        }
    }

    @Test
    public void directSourceBuffersReadTheSame() {
        byte[] data = data(150_000, new Random(SEED));
        for (CompressionType type : CODECS) {
            ByteBuffer heap = compress(type, data);
            ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining());
            direct.put(heap.duplicate()).flip();
            assertArrayEquals(type.configName, data, bytes(Compression.decompress(type, direct, data.length)));
        }
    }

    @Test
    public void streamsFromWrapForInputReadByteByByteToo() throws IOException {
        byte[] data = data(5000, new Random(SEED));
        for (CompressionType type : CODECS) {
            try (InputStream in = Compression.wrapForInput(type, compress(type, data))) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (int b = in.read(); b >= 0; b = in.read()) {
                    out.write(b);
                }
                assertArrayEquals(type.configName, data, out.toByteArray());
            }
        }
    }

    // LZ4 frames beyond what Kafka writes, from lz4-java's own frame writer.

    @Test
    public void lz4ReadsFramesWithChecksumsContentSizeAndLargerBlocks() throws IOException {
        byte[] data = data(3 << 20, new Random(SEED));
        Bits[][] flagSets = {{Bits.BLOCK_INDEPENDENCE}, {Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM},
            {Bits.BLOCK_INDEPENDENCE, Bits.CONTENT_CHECKSUM, Bits.CONTENT_SIZE},
            {Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM, Bits.CONTENT_CHECKSUM, Bits.CONTENT_SIZE}};
        for (BLOCKSIZE blockSize : BLOCKSIZE.values()) {
            for (Bits[] flags : flagSets) {
                ByteBuffer frame = lz4JavaFrame(data, blockSize, flags);
                assertArrayEquals(blockSize + " " + Arrays.toString(flags), data,
                    bytes(Compression.decompress(CompressionType.LZ4, frame, data.length)));
            }
        }
    }

    private static ByteBuffer lz4JavaFrame(byte[] data, BLOCKSIZE blockSize, Bits... flags) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream lz4 = new LZ4FrameOutputStream(out, blockSize, data.length, flags)) {
            lz4.write(data);
        }
        return ByteBuffer.wrap(out.toByteArray());
    }

    @Test
    public void lz4RejectsDescriptorsItCannotHonour() {
        byte[] frame = bytes(compress(CompressionType.LZ4, data(1000, new Random(SEED))));
        expectLz4Corrupt(frame, f -> f[0] ^= 1, "magic");
        expectLz4Corrupt(frame, f -> f[4] = (byte) 0x20, "version");
        expectLz4Corrupt(frame, f -> f[4] = (byte) 0xA0, "version");
        expectLz4Corrupt(frame, f -> f[4] |= 0x01, "reserved");
        expectLz4Corrupt(frame, f -> f[4] &= ~0x20, "dependent");
        expectLz4Corrupt(frame, f -> f[5] = 0x30, "block descriptor");
        expectLz4Corrupt(frame, f -> f[5] |= 0x01, "block descriptor");
        expectLz4Corrupt(frame, f -> f[6] ^= 0x55, "checksum");
    }

    @Test
    public void lz4RejectsABlockLargerThanTheFrameAllowsAndBytesAfterTheEndMark() {
        byte[] frame = bytes(compress(CompressionType.LZ4, data(1000, new Random(SEED))));
        expectLz4Corrupt(frame, f -> ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN).putInt(7, (64 << 10) + 1), "exceeds");
        byte[] longer = Arrays.copyOf(frame, frame.length + 1);
        expectCorrupt("trailing", () -> Compression.decompress(CompressionType.LZ4, ByteBuffer.wrap(longer), 1 << 20));
        byte[] noEndMark = Arrays.copyOf(frame, frame.length - 4);
        expectCorrupt("no end mark", () -> Compression.decompress(CompressionType.LZ4, ByteBuffer.wrap(noEndMark), 1 << 20));
    }

    @Test
    public void lz4VerifiesBlockChecksums() throws IOException {
        byte[] frame = bytes(lz4JavaFrame(data(1000, new Random(SEED)), BLOCKSIZE.SIZE_64KB, Bits.BLOCK_INDEPENDENCE, Bits.BLOCK_CHECKSUM));
        int blockSize = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).getInt(7) & 0x7fffffff;
        int checksumIndex = 7 + 4 + blockSize;
        expectLz4Corrupt(frame, f -> f[checksumIndex] ^= 1, "checksum");
    }

    private interface Mutation {
        void apply(byte[] frame);
    }

    private static void expectLz4Corrupt(byte[] frame, Mutation mutation, String messagePart) {
        byte[] copy = frame.clone();
        mutation.apply(copy);
        try {
            Compression.decompress(CompressionType.LZ4, ByteBuffer.wrap(copy), 1 << 20);
            fail("expected CorruptRecordException mentioning " + messagePart);
        } catch (CorruptRecordException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains(messagePart));
        }
    }

    // snappy-java's framing, the parts Kafka's writer never produces.

    @Test
    public void snappyReadsManySmallChunksAndConcatenatedStreams() throws IOException {
        byte[] data = data(50_000, new Random(SEED));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (SnappyOutputStream snappy = new SnappyOutputStream(out, 1024)) {
            snappy.write(data, 0, 20_000);
        }
        try (SnappyOutputStream snappy = new SnappyOutputStream(out)) {
            snappy.write(data, 20_000, 30_000);
        }
        assertArrayEquals(data, bytes(Compression.decompress(CompressionType.SNAPPY, ByteBuffer.wrap(out.toByteArray()), data.length)));
    }

    @Test
    public void aSnappyChunkClaimingMoreThanItCanHoldIsRejectedBeforeAllocating() {
        byte[] stream = bytes(compress(CompressionType.SNAPPY, new byte[0]));
        ByteBuffer chunk = ByteBuffer.allocate(stream.length + 4 + 5);
        chunk.put(stream).putInt(5).put(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07}).flip();
        try {
            Compression.decompress(CompressionType.SNAPPY, chunk, Integer.MAX_VALUE);
            fail();
        } catch (CorruptRecordException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("claims"));
        }
    }

    @Test
    public void snappyRejectsAMissingMagicAndTornOrOverlongChunks() {
        byte[] stream = bytes(compress(CompressionType.SNAPPY, data(1000, new Random(SEED))));
        expectCorrupt("no magic", () -> Compression.decompress(CompressionType.SNAPPY, ByteBuffer.wrap(stream, 1, stream.length - 1), 1 << 20));
        byte[] torn = Arrays.copyOf(stream, stream.length + 2);
        expectCorrupt("torn length", () -> Compression.decompress(CompressionType.SNAPPY, ByteBuffer.wrap(torn), 1 << 20));
        byte[] overlong = stream.clone();
        ByteBuffer.wrap(overlong).putInt(16, stream.length);
        expectCorrupt("overlong chunk", () -> Compression.decompress(CompressionType.SNAPPY, ByteBuffer.wrap(overlong), 1 << 20));
    }

    /** Random bytes, truncations and bit flips of real streams: decoded or CorruptRecordException, nothing else. */
    @Test
    public void damagedStreamsRaiseOnlyCorruptRecordException() {
        Random random = new Random(SEED);
        for (CompressionType type : CODECS) {
            byte[] valid = bytes(compress(type, data(20_000, random)));
            for (int i = 0; i < 300; i++) {
                byte[] damaged = damage(valid, random);
                try {
                    Compression.decompress(type, ByteBuffer.wrap(damaged), 1 << 20);
                } catch (CorruptRecordException expected) {
                    // the one exception damaged input may raise
                } catch (RuntimeException | Error e) {
                    throw new AssertionError("seed " + SEED + " " + type + " case " + i + ": " + e, e);
                }
            }
        }
    }

    private static byte[] damage(byte[] valid, Random random) {
        switch (random.nextInt(3)) {
            case 0:
                byte[] garbage = new byte[random.nextInt(200)];
                random.nextBytes(garbage);
                return garbage;
            case 1:
                return Arrays.copyOf(valid, random.nextInt(valid.length));
            default:
                byte[] flipped = valid.clone();
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    int index = random.nextInt(Math.min(flipped.length, 64 + random.nextInt(flipped.length)));
                    flipped[index] ^= (byte) (1 << random.nextInt(8));
                }
                return flipped;
        }
    }

    private static void expectCorrupt(String what, Runnable read) {
        try {
            read.run();
            fail(what + ": expected CorruptRecordException");
        } catch (CorruptRecordException expected) {
            // bad input, reported as such
        }
    }
}
