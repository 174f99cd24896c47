package io.millrace.common.record;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.InvalidRecordException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.Test;

/**
 * Transaction markers byte for byte as Kafka writes them, so that Kafka's consumers skip them and
 * act on them, and read back from batches Kafka wrote.
 */
public class EndTransactionMarkerTest {

    private static final long PRODUCER_ID = 77L;
    private static final short EPOCH = 3;
    private static final long TIMESTAMP = 1_700_000_000_123L;

    private static ByteBuffer kafkaMarker(ControlRecordType type, int coordinatorEpoch, int leaderEpoch) {
        return MemoryRecords.withEndTransactionMarker(0L, TIMESTAMP, leaderEpoch, PRODUCER_ID, EPOCH,
            new org.apache.kafka.common.record.internal.EndTransactionMarker(type, coordinatorEpoch)).buffer();
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] out = new byte[copy.remaining()];
        copy.get(out);
        return out;
    }

    @Test
    public void commitAndAbortBatchesAreKafkasBytes() {
        for (boolean commit : new boolean[] {true, false}) {
            ByteBuffer ours = new EndTransactionMarker(commit, 12).toBatch(PRODUCER_ID, EPOCH, TIMESTAMP, 9);
            ByteBuffer kafka = kafkaMarker(commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT, 12, 9);
            assertArrayEquals("commit " + commit + ": " + Arrays.toString(bytes(ours)), bytes(kafka), bytes(ours));
        }
    }

    @Test
    public void readsKafkasMarkers() {
        RecordBatch abort = RecordBatch.wrap(kafkaMarker(ControlRecordType.ABORT, 4, 0), 0);
        assertTrue(abort.isControlBatch());
        assertTrue(abort.isTransactional());
        assertEquals(new EndTransactionMarker(false, 4), EndTransactionMarker.read(abort));
        assertEquals(new EndTransactionMarker(true, 0),
            EndTransactionMarker.read(RecordBatch.wrap(kafkaMarker(ControlRecordType.COMMIT, 0, 0), 0)));
    }

    @Test
    public void otherControlRecordsEndNoTransactionAndAKeylessOneIsRefused() {
        ByteBuffer key = ByteBuffer.allocate(4).putShort((short) 0).putShort((short) 5).flip();
        ByteBuffer other = RecordBatchBuilder.create(CompressionType.NONE, 0, 64).producerState(1, (short) 0, -1, false)
            .controlBatch().append(TIMESTAMP, key, ByteBuffer.allocate(2)).build();
        assertNull(EndTransactionMarker.read(RecordBatch.wrap(other, 0)));
        ByteBuffer keyless = RecordBatchBuilder.create(CompressionType.NONE, 0, 64).controlBatch()
            .append(TIMESTAMP, (ByteBuffer) null, null).build();
        assertThrows(InvalidRecordException.class, () -> EndTransactionMarker.read(RecordBatch.wrap(keyless, 0)));
    }
}
