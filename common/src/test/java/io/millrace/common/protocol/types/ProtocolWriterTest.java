package io.millrace.common.protocol.types;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.ByteUtils;
import org.junit.Test;

public class ProtocolWriterTest {

    private static final int[] INTS = {0, 1, -1, 63, 64, -64, -65, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152,
        Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final long[] LONGS = {0L, -1L, 1L << 35, -(1L << 35), Long.MAX_VALUE, Long.MIN_VALUE};

    /** Writes with a BufferWriter, checking that a SizeCounter counts the same number of bytes. */
    private static ByteBuffer write(boolean flexible, Consumer<ProtocolWriter> body) {
        SizeCounter counter = new SizeCounter(flexible);
        body.accept(counter);
        ByteBuffer buffer = ByteBuffer.allocate(counter.size());
        body.accept(new BufferWriter(buffer, flexible));
        assertEquals("counted vs written", 0, buffer.remaining());
        return buffer.flip();
    }

    @Test
    public void unsignedVarintsMatchKafkasEncodingAndSize() {
        for (int value : INTS) {
            ByteBuffer ours = write(true, w -> w.writeUnsignedVarint(value));
            ByteBuffer kafka = ByteBuffer.allocate(5);
            ByteUtils.writeUnsignedVarint(value, kafka);
            assertEquals("value " + value, kafka.flip(), ours);
            assertEquals(value, new ProtocolReader(ours, true).readUnsignedVarint());
        }
    }

    @Test
    public void zigZagVarintsAndVarlongsMatchKafka() {
        for (int value : INTS) {
            ByteBuffer ours = write(true, w -> w.writeVarint(value));
            ByteBuffer kafka = ByteBuffer.allocate(5);
            ByteUtils.writeVarint(value, kafka);
            assertEquals(kafka.flip(), ours);
            assertEquals(value, new ProtocolReader(ours, true).readVarint());
        }
        for (long value : LONGS) {
            ByteBuffer ours = write(true, w -> w.writeVarlong(value));
            ByteBuffer kafka = ByteBuffer.allocate(10);
            ByteUtils.writeVarlong(value, kafka);
            assertEquals(kafka.flip(), ours);
            assertEquals(value, new ProtocolReader(ours, true).readVarlong());
        }
    }

    @Test
    public void utf8LengthAgreesWithTheJdkEncoderEvenForBrokenSurrogates() {
        for (String s : List.of("", "abc", "é", "€", "日本", "😀", "a\ud800b", "\udc00", "x\ud83d")) {
            assertEquals(s, s.getBytes(StandardCharsets.UTF_8).length, ProtocolWriter.utf8Length(s));
        }
    }

    @Test
    public void stringsRoundTripInBothEncodings() {
        for (boolean flexible : new boolean[] {false, true}) {
            ByteBuffer bytes = write(flexible, w -> {
                w.writeString("grüße");
                w.writeNullableString(null);
                w.writeClassicNullableString("client");
            });
            ProtocolReader reader = new ProtocolReader(bytes, flexible);
            assertEquals("grüße", reader.readString());
            assertEquals(null, reader.readNullableString());
            assertEquals("client", reader.readClassicNullableString());
            assertEquals(0, reader.remaining());
        }
    }

    @Test
    public void compactEncodingsStoreLengthPlusOne() {
        ByteBuffer bytes = write(true, w -> {
            w.writeString("ab");
            w.writeNullableBytes(null);
            w.writeInt32Array(List.of(9));
            w.writeTaggedFields();
        });
        byte[] expected = {3, 'a', 'b', 0, 2, 0, 0, 0, 9, 0};
        assertArrayEquals(expected, Arrays.copyOf(bytes.array(), bytes.limit()));
    }

    @Test
    public void writingBytesLeavesTheSourcePositionAlone() {
        ByteBuffer source = ByteBuffer.wrap(new byte[] {1, 2, 3});
        source.position(1);
        ByteBuffer bytes = write(false, w -> w.writeBytes(source));
        assertEquals(1, source.position());
        assertEquals(ByteBuffer.wrap(new byte[] {0, 0, 0, 2, 2, 3}), bytes);
    }

    @Test
    public void nullForANonNullableFieldIsAProgrammingError() {
        assertThrows(IllegalArgumentException.class, () -> write(false, w -> w.writeString(null)));
        assertThrows(IllegalArgumentException.class, () -> write(true, w -> w.writeArray(null, ProtocolWriter::writeInt32)));
    }

    @Test
    public void stringLongerThanTheProtocolAllowsIsAProgrammingError() {
        String tooLong = "x".repeat(Short.MAX_VALUE + 1);
        assertThrows(IllegalArgumentException.class, () -> write(false, w -> w.writeString(tooLong)));
    }

    @Test
    public void sizeCounterKeepsRecordsBytesApart() {
        SizeCounter counter = new SizeCounter(false);
        counter.writeInt32(1);
        counter.writeRecords(RecordsPayload.of(ByteBuffer.allocate(100)));
        assertEquals(4 + 4 + 100, counter.size());
        assertEquals(100, counter.recordsSize());
    }

    @Test
    public void unsignedIntegersUseTheirFullRangeAndRejectValuesOutsideIt() {
        ByteBuffer bytes = write(false, w -> {
            w.writeUint16(65_535);
            w.writeUint32(4_294_967_295L);
        });
        ProtocolReader reader = new ProtocolReader(bytes, false);
        assertEquals(65_535, reader.readUint16());
        assertEquals(4_294_967_295L, reader.readUint32());
        assertThrows(IllegalArgumentException.class, () -> write(false, w -> w.writeUint16(-1)));
        assertThrows(IllegalArgumentException.class, () -> write(false, w -> w.writeUint32(1L << 32)));
    }
}
