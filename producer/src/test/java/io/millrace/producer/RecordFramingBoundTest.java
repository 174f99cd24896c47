package io.millrace.producer;

import static org.junit.Assert.assertTrue;

import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import org.junit.Test;

/**
 * {@code send} skips sizing a header-less record when its key and value plus
 * {@link MillraceProducer#MAX_FRAMING_WITHOUT_HEADERS} fit; that bound must never be below the
 * real framing, or an oversized record would slip through.
 */
public class RecordFramingBoundTest {

    @Test
    public void theBoundCoversTheFramingOfEveryKeyAndValueLength() {
        // -1 is a null key or value; the others straddle each width of a length varint up to 4 bytes
        // (5-byte lengths, over 128 MiB, are counted at 5 bytes in the bound by construction)
        int[] lengths = {-1, 0, 1, 63, 64, 8_191, 8_192, 1_048_575, 1_048_576, 2_097_152};
        for (int keyLength : lengths) {
            for (int valueLength : lengths) {
                int exact = RecordBatchBuilder.sizeOfSingleRecordBatch(buffer(keyLength), buffer(valueLength), new Header[0]);
                int framing = exact - Math.max(keyLength, 0) - Math.max(valueLength, 0);
                assertTrue("key " + keyLength + ", value " + valueLength + ": framing " + framing,
                    framing <= MillraceProducer.MAX_FRAMING_WITHOUT_HEADERS);
            }
        }
    }

    private static ByteBuffer buffer(int length) {
        return length < 0 ? null : ByteBuffer.allocate(length);
    }
}
