package io.millrace.schemaregistry.serde;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.serialization.SerializationException;
import java.io.ByteArrayOutputStream;
import org.junit.Test;

public class WireFormatTest {

    @Test
    public void thePrefixIsTheMagicByteThenTheIdBigEndian() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WireFormat.writePrefix(out, 0x01020304);
        assertArrayEquals(new byte[] {0, 1, 2, 3, 4}, out.toByteArray());
        assertEquals(0x01020304, WireFormat.schemaId("t", out.toByteArray()));
    }

    @Test
    public void idsWithTheHighBitSetSurviveTheRoundTrip() {
        for (int id : new int[] {0, 1, 42, 255, 256, 65_536, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            WireFormat.writePrefix(out, id);
            out.write(7);
            assertEquals(id, WireFormat.schemaId("t", out.toByteArray()));
        }
    }

    @Test
    public void theJavadocExampleHolds() {
        assertEquals(42, WireFormat.schemaId("t", new byte[] {0, 0, 0, 0, 0x2a, 0x04, 0x2f, 0x61}));
    }

    @Test
    public void aWrongMagicByteIsRefusedNamingTheTopic() {
        SerializationException e = assertThrows(SerializationException.class,
            () -> WireFormat.schemaId("page-views", new byte[] {1, 0, 0, 0, 1, 2}));
        assertTrue(e.getMessage(), e.getMessage().contains("page-views") && e.getMessage().contains("0x01"));
    }

    @Test
    public void aValueShorterThanThePrefixIsRefusedNamingTheTopic() {
        for (int length = 0; length < WireFormat.PAYLOAD_OFFSET; length++) {
            byte[] data = new byte[length];
            SerializationException e = assertThrows(SerializationException.class, () -> WireFormat.schemaId("clicks", data));
            assertTrue(e.getMessage(), e.getMessage().contains("clicks") && e.getMessage().contains(length + " bytes"));
        }
    }
}
