package io.millrace.common.protocol.types;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.Test;

public class ProtocolReaderTest {

    private static ProtocolReader classic(int... bytes) {
        return new ProtocolReader(bytes(bytes), false);
    }

    private static ProtocolReader compact(int... bytes) {
        return new ProtocolReader(bytes(bytes), true);
    }

    private static ByteBuffer bytes(int... bytes) {
        ByteBuffer buffer = ByteBuffer.allocate(bytes.length);
        for (int b : bytes) {
            buffer.put((byte) b);
        }
        return buffer.flip();
    }

    @Test
    public void truncatedFixedWidthReadsRaiseInvalidRequest() {
        assertThrows(InvalidRequestException.class, () -> classic().readInt8());
        assertThrows(InvalidRequestException.class, () -> classic(0).readInt16());
        assertThrows(InvalidRequestException.class, () -> classic(0, 0, 0).readInt32());
        assertThrows(InvalidRequestException.class, () -> classic(0, 0, 0, 0, 0, 0, 0).readInt64());
        assertThrows(InvalidRequestException.class, () -> classic(new int[15]).readUuid());
    }

    @Test
    public void classicStringLengthBelowMinusOneIsRejected() {
        assertThrows(InvalidRequestException.class, () -> classic(0xff, 0xfe, 'a').readNullableString());
    }

    @Test
    public void stringLongerThanTheBytesLeftIsRejected() {
        assertThrows(InvalidRequestException.class, () -> classic(0x7f, 0xff, 'a', 'b').readString());
        assertThrows(InvalidRequestException.class, () -> compact(0x05, 'a').readString());
    }

    @Test
    public void compactStringLengthAboveTheInt16RangeIsRejectedBeforeAllocating() {
        // unsigned varint 0x7fffffff + 1: far more than any string may be
        assertThrows(InvalidRequestException.class, () -> compact(0x80, 0x80, 0x80, 0x80, 0x08, 'a').readString());
    }

    @Test
    public void nullStringsReadAsNullAndNonNullableOnesAreRejected() {
        assertNull(classic(0xff, 0xff).readNullableString());
        assertNull(compact(0x00).readNullableString());
        assertThrows(InvalidRequestException.class, () -> classic(0xff, 0xff).readString());
        assertThrows(InvalidRequestException.class, () -> compact(0x00).readString());
    }

    @Test
    public void stringsAreReadFromDirectBuffersToo() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        direct.put((byte) 4).put("ßa".getBytes(StandardCharsets.UTF_8)).flip();
        assertEquals("ßa", new ProtocolReader(direct, true).readString());
    }

    @Test
    public void negativeBytesLengthIsRejected() {
        assertThrows(InvalidRequestException.class, () -> classic(0xff, 0xff, 0xff, 0xfe).readNullableBytes());
        assertThrows(InvalidRequestException.class, () -> classic(0x80, 0, 0, 0).readNullableBytes());
    }

    @Test
    public void bytesLengthBeyondTheBufferIsRejected() {
        assertThrows(InvalidRequestException.class, () -> classic(0x7f, 0xff, 0xff, 0xff, 1, 2, 3).readBytes());
        assertThrows(InvalidRequestException.class, () -> compact(0xff, 0xff, 0xff, 0xff, 0x0f).readBytes());
    }

    @Test
    public void bytesAreSlicesThatShareTheInput() {
        ByteBuffer input = bytes(0, 0, 0, 2, 7, 8, 9);
        ByteBuffer slice = new ProtocolReader(input, false).readBytes();
        assertEquals(2, slice.remaining());
        input.put(4, (byte) 42);
        assertEquals(42, slice.get(0));
        assertEquals(6, input.position());
    }

    @Test
    public void arrayCountLargerThanTheBytesLeftIsRejectedBeforeAllocating() {
        assertThrows(InvalidRequestException.class, () -> classic(0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1).readInt32Array());
        assertThrows(InvalidRequestException.class, () -> compact(0x80, 0x80, 0x80, 0x80, 0x07).readInt32Array());
    }

    @Test
    public void arrayCountIsBoundedByTheMinimumElementSize() {
        // three int32 elements claimed, eight bytes left
        assertThrows(InvalidRequestException.class, () -> classic(0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2).readInt32Array());
        assertEquals(List.of(1, 2), classic(0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2).readInt32Array());
    }

    @Test
    public void negativeArrayCountIsRejectedAndMinusOneIsNull() {
        assertThrows(InvalidRequestException.class, () -> classic(0xff, 0xff, 0xff, 0xfe).readInt32Array());
        assertNull(classic(0xff, 0xff, 0xff, 0xff).readNullableArray(ProtocolReader::readInt32, 4));
        assertNull(compact(0).readNullableArray(ProtocolReader::readInt32, 4));
        assertThrows(InvalidRequestException.class, () -> compact(0).readInt32Array());
    }

    @Test
    public void varintLongerThanFiveBytesIsRejected() {
        assertThrows(InvalidRequestException.class, () -> compact(0x80, 0x80, 0x80, 0x80, 0x80, 0x01).readUnsignedVarint());
        assertThrows(InvalidRequestException.class, () -> compact(0x80, 0x80).readUnsignedVarint());
    }

    @Test
    public void varlongLongerThanTenBytesIsRejected() {
        int[] eleven = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
        assertThrows(InvalidRequestException.class, () -> compact(eleven).readVarlong());
    }

    @Test
    public void unknownTaggedFieldsAreSkipped() {
        // two tags: tag 0 with 2 bytes, tag 5 with 1 byte; then an int16 that follows the section
        ProtocolReader reader = compact(2, 0, 2, 0xaa, 0xbb, 5, 1, 0xcc, 0x01, 0x02);
        reader.readTaggedFields();
        assertEquals(0x0102, reader.readInt16());
    }

    @Test
    public void taggedFieldOverrunningTheBufferIsRejected() {
        assertThrows(InvalidRequestException.class, () -> compact(1, 0, 9, 1, 2).readTaggedFields());
        assertThrows(InvalidRequestException.class, () -> compact(0x80, 0x80, 0x80, 0x80, 0x0f).readTaggedFields());
    }

    @Test
    public void classicReadersHaveNoTaggedFields() {
        ProtocolReader reader = classic(7);
        reader.readTaggedFields();
        assertEquals(1, reader.remaining());
    }

    @Test
    public void uuidReadsMostSignificantBitsFirst() {
        ByteBuffer buffer = ByteBuffer.allocate(16).putLong(1L).putLong(2L).flip();
        assertEquals(new UUID(1L, 2L), new ProtocolReader(buffer, false).readUuid());
    }

    @Test
    public void anyNonZeroByteReadsAsTrue() {
        assertTrue(classic(2).readBool());
    }
}
