package io.millrace.broker.group;

import io.millrace.broker.log.FileSlice;
import io.millrace.broker.log.Log;
import io.millrace.common.TopicPartition;
import io.millrace.common.record.EndTransactionMarker;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Collections;

/**
 * Reads a partition of the offsets topic into a {@link JournalPartition}, as a new leader must before
 * it coordinates the partition's groups: the commits from the registry's mark to the end, the latest
 * record of each group's partition winning, and each group's latest generation from the start of the
 * log (the log is trimmed only below the generations still needed, see {@link OffsetJournal}).
 * A transactional producer's commits wait for their transaction's marker, as they did when appended.
 */
final class JournalReplay {

    private static final int READ_BYTES = 1 << 20;

    /** Replays the commits of {@code log} from {@code from} and its generations; returns how many commits it found. */
    int replay(Log log, long from, JournalPartition into) {
        return replay(log, log.logStartOffset(), from, into, false);
    }

    /** Replays only the transaction markers of {@code log} from {@code from} on. */
    void replayMarkers(Log log, long from, JournalPartition into) {
        replay(log, Math.max(from, log.logStartOffset()), from, into, true);
    }

    private int replay(Log log, long start, long from, JournalPartition into, boolean markersOnly) {
        long position = start;
        long end = log.logEndOffset();
        int found = 0;
        while (position < end) {
            ByteBuffer bytes = read(log, position);
            long next = position;
            for (RecordBatch batch : RecordBatchIterator.batches(bytes)) {
                if (batch.isControlBatch()) {
                    replayMarker(batch, from, into);
                } else if (!markersOnly) {
                    found += replayBatch(batch, from, into);
                }
                next = batch.nextOffset();
            }
            if (next <= position) {
                break; // nothing whole could be read: the log ends in a torn batch
            }
            position = next;
        }
        return found;
    }

    private static ByteBuffer read(Log log, long position) {
        FileSlice slice = log.read(position, READ_BYTES, true);
        try {
            return slice.readFully();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + log.topicPartition() + " at " + position, e);
        }
    }

    private static byte[] bytes(ByteBuffer value) {
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        return bytes;
    }

    private static void replayMarker(RecordBatch batch, long from, JournalPartition into) {
        EndTransactionMarker marker = batch.baseOffset() >= from ? EndTransactionMarker.read(batch) : null;
        if (marker != null) {
            synchronized (into) {
                into.transactionEnded(batch.producerId(), marker.commit());
            }
        }
    }

    private static int replayBatch(RecordBatch batch, long from, JournalPartition into) {
        int found = 0;
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                String group = record.hasKey() ? GroupMetadataRecord.groupOf(record.key()) : null;
                if (group != null) {
                    synchronized (into) {
                        into.groupAppended(group, record.hasValue() ? bytes(record.value()) : null, record.offset());
                    }
                    continue;
                }
                if (record.offset() < from) {
                    continue;
                }
                OffsetsTopic.Entry entry = OffsetsTopic.decode(record);
                if (entry != null && batch.isTransactional()) {
                    synchronized (into) {
                        into.transactionalAppended(batch.producerId(), entry.group(),
                            Collections.singletonMap(entry.partition(), entry.committed()), record.offset(), record.offset());
                    }
                } else if (entry != null) {
                    synchronized (into) {
                        into.appended(entry.group(), Collections.singletonMap(entry.partition(), entry.committed()),
                            record.offset(), record.offset());
                    }
                    found++;
                }
            }
        }
        return found;
    }
}
