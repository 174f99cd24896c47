package io.millrace.common.utils;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.fail;

import io.millrace.common.errors.CorruptRecordException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.Test;

public class ByteUtilsTest {

    private static final long SEED = 20240601L;

    @Test
    public void varintSizesChangeAtSevenBitBoundariesOfTheZigZagValue() {
        int[][] cases = {
            {0, 1}, {1, 1}, {-1, 1}, {63, 1}, {-64, 1},
            {64, 2}, {-65, 2}, {8191, 2}, {-8192, 2},
            {8192, 3}, {-8193, 3}, {(1 << 20) - 1, 3}, {-(1 << 20), 3},
            {1 << 20, 4}, {-(1 << 20) - 1, 4}, {(1 << 27) - 1, 4}, {-(1 << 27), 4},
            {1 << 27, 5}, {-(1 << 27) - 1, 5}, {Integer.MAX_VALUE, 5}, {Integer.MIN_VALUE, 5},
        };
        for (int[] c : cases) {
            assertEquals("size of " + c[0], c[1], ByteUtils.sizeOfVarint(c[0]));
            ByteBuffer buffer = ByteBuffer.allocate(5);
            ByteUtils.writeVarint(c[0], buffer);
            assertEquals("bytes written for " + c[0], c[1], buffer.position());
            buffer.flip();
            assertEquals(c[0], ByteUtils.readVarint(buffer));
            assertFalse(buffer.hasRemaining());
        }
    }

    @Test
    public void theSizeIsTheBytesWrittenAtEveryBitLength() {
        ByteBuffer buffer = ByteBuffer.allocate(10);
        for (int bit = 0; bit < 64; bit++) {
            for (long base : new long[] {1L << bit, -(1L << bit)}) {
                for (long value = base - 1; value <= base + 1; value++) {
                    buffer.clear();
                    ByteUtils.writeVarlong(value, buffer);
                    assertEquals("varlong " + value, buffer.position(), ByteUtils.sizeOfVarlong(value));
                    int intValue = (int) value;
                    buffer.clear();
                    ByteUtils.writeVarint(intValue, buffer);
                    assertEquals("varint " + intValue, buffer.position(), ByteUtils.sizeOfVarint(intValue));
                }
            }
        }
    }

    @Test
    public void theArrayWritersWriteWhatTheBufferWritersDoAndReturnTheIndexAfter() {
        ByteBuffer buffer = ByteBuffer.allocate(10);
        byte[] array = new byte[13];
        for (int bit = 0; bit < 64; bit++) {
            for (long base : new long[] {1L << bit, -(1L << bit)}) {
                for (long value = base - 1; value <= base + 1; value++) {
                    buffer.clear();
                    ByteUtils.writeVarlong(value, buffer);
                    int end = ByteUtils.writeVarlong(value, array, 3);
                    assertEquals("varlong " + value, 3 + buffer.position(), end);
                    assertArrayEquals("varlong " + value, Arrays.copyOf(buffer.array(), buffer.position()),
                        Arrays.copyOfRange(array, 3, end));
                    int intValue = (int) value;
                    buffer.clear();
                    ByteUtils.writeVarint(intValue, buffer);
                    end = ByteUtils.writeVarint(intValue, array, 3);
                    assertEquals("varint " + intValue, 3 + buffer.position(), end);
                    assertArrayEquals("varint " + intValue, Arrays.copyOf(buffer.array(), buffer.position()),
                        Arrays.copyOfRange(array, 3, end));
                }
            }
        }
    }

    @Test
    public void varlongExtremesTakeTenBytes() {
        long[] values = {Long.MAX_VALUE, Long.MIN_VALUE, -1L << 62, 1L << 62};
        for (long value : values) {
            assertEquals(value >= (1L << 62) || value < -(1L << 62) ? 10 : 9, ByteUtils.sizeOfVarlong(value));
            ByteBuffer buffer = ByteBuffer.allocate(10);
            ByteUtils.writeVarlong(value, buffer);
            buffer.flip();
            assertEquals(value, ByteUtils.readVarlong(buffer));
        }
        assertEquals(1, ByteUtils.sizeOfVarlong(0));
        assertEquals(1, ByteUtils.sizeOfVarlong(-64));
        assertEquals(2, ByteUtils.sizeOfVarlong(64));
    }

    @Test
    public void aFiveByteVarintIsTheLongestAccepted() {
        assertEquals(Integer.MIN_VALUE, ByteUtils.readVarint(bytes(0xff, 0xff, 0xff, 0xff, 0x0f)));
        assertEquals(Integer.MAX_VALUE, ByteUtils.readVarint(bytes(0xfe, 0xff, 0xff, 0xff, 0x0f)));
        assertCorrupt(() -> ByteUtils.readVarint(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0x01)));
        assertCorrupt(() -> ByteUtils.readVarint(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00)));
    }

    @Test
    public void aTenByteVarlongIsTheLongestAccepted() {
        assertEquals(Long.MIN_VALUE, ByteUtils.readVarlong(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)));
        assertCorrupt(() -> ByteUtils.readVarlong(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)));
    }

    @Test
    public void aVarintCutOffByTheBufferIsCorrupt() {
        assertCorrupt(() -> ByteUtils.readVarint(bytes()));
        assertCorrupt(() -> ByteUtils.readVarint(bytes(0x80)));
        assertCorrupt(() -> ByteUtils.readVarint(bytes(0xff, 0xff, 0xff, 0xff)));
        assertCorrupt(() -> ByteUtils.readVarlong(bytes(0x80, 0x80)));
    }

    @Test
    public void encodingsAreKafkasForRandomValues() {
        Random random = new Random(SEED);
        ByteBuffer ours = ByteBuffer.allocate(10);
        ByteBuffer kafkas = ByteBuffer.allocate(10);
        for (int i = 0; i < 10_000; i++) {
            int value = i < 5000 ? random.nextInt() >> random.nextInt(32) : random.nextInt();
            long longValue = random.nextLong() >> random.nextInt(64);
            ours.clear();
            kafkas.clear();
            ByteUtils.writeVarint(value, ours);
            org.apache.kafka.common.utils.ByteUtils.writeVarint(value, kafkas);
            assertEquals("seed " + SEED + " value " + value, kafkas.flip(), ours.flip());
            assertEquals(org.apache.kafka.common.utils.ByteUtils.sizeOfVarint(value), ByteUtils.sizeOfVarint(value));
            ours.clear();
            kafkas.clear();
            ByteUtils.writeVarlong(longValue, ours);
            org.apache.kafka.common.utils.ByteUtils.writeVarlong(longValue, kafkas);
            assertEquals("seed " + SEED + " value " + longValue, kafkas.flip(), ours.flip());
        }
    }

    /** Kafka keeps only the low bits of an over-wide fifth byte; reading the same bytes must agree. */
    @Test
    public void decodingAgreesWithKafkaOnEveryShapeOfFiveBytes() {
        Random random = new Random(SEED);
        for (int i = 0; i < 10_000; i++) {
            int length = 1 + random.nextInt(5);
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            for (int b = 0; b < length - 1; b++) {
                bytes[b] |= (byte) 0x80;
            }
            bytes[length - 1] &= 0x7f;
            int kafka = org.apache.kafka.common.utils.ByteUtils.readVarint(ByteBuffer.wrap(bytes));
            assertEquals("seed " + SEED + " case " + i, kafka, ByteUtils.readVarint(ByteBuffer.wrap(bytes)));
        }
    }

    @Test
    public void unsignedIntsKeepTheirHighBit() {
        ByteBuffer buffer = ByteBuffer.allocate(8);
        ByteUtils.writeUnsignedInt(buffer, 2, 0xcbf329e0L);
        assertEquals(0xcbf329e0L, ByteUtils.readUnsignedInt(buffer, 2));
        assertEquals(0xcbf329e0, buffer.getInt(2));
    }

    private static ByteBuffer bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return ByteBuffer.wrap(bytes);
    }

    private static void assertCorrupt(Runnable read) {
        try {
            read.run();
            fail("expected CorruptRecordException");
        } catch (CorruptRecordException expected) {
            // the only exception untrusted varints may raise
        }
    }
}
