package io.millrace.broker.log;

import static org.junit.Assert.assertEquals;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Batches, configs and checks shared by the log tests. */
final class LogTestUtils {

    private LogTestUtils() {
    }

    /** One batch with a record per value, all stamped {@code timestamp}. */
    static ByteBuffer batch(long timestamp, String... values) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256);
        for (String value : values) {
            builder.append(timestamp, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** One batch with one record per timestamp, valued "v<timestamp>". */
    static ByteBuffer batchWithTimestamps(long... timestamps) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256);
        for (long timestamp : timestamps) {
            builder.append(timestamp, null, ("v" + timestamp).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** One single-record batch whose value has {@code valueBytes} bytes. */
    static ByteBuffer batchOfValueSize(long timestamp, int valueBytes) {
        return RecordBatchBuilder.create(CompressionType.NONE, 0, valueBytes + 128)
            .append(timestamp, null, new byte[valueBytes]).build();
    }

    /** Several batches back to back in one buffer, as a Produce request carries them. */
    static ByteBuffer concat(ByteBuffer... batches) {
        int size = 0;
        for (ByteBuffer b : batches) {
            size += b.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (ByteBuffer b : batches) {
            all.put(b.duplicate());
        }
        return all.flip();
    }

    static LogConfig config(Object... keysAndValues) {
        Map<String, Object> props = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return new LogConfig(props);
    }

    /** The whole batches of a slice (a cut-off last batch is left out), each checked with ensureIntact. */
    static List<RecordBatch> batches(FileSlice slice) throws IOException {
        ByteBuffer bytes = slice.readFully();
        List<RecordBatch> batches = new ArrayList<>();
        for (RecordBatch batch : RecordBatchIterator.batches(bytes)) {
            batch.ensureIntact();
            batches.add(batch);
        }
        return batches;
    }

    /** Reads the whole log from its start, one batch at a time, and returns every batch. */
    static List<RecordBatch> readAll(Log log) throws IOException {
        List<RecordBatch> all = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            List<RecordBatch> read = batches(log.read(offset, 1, true));
            assertEquals("one whole batch at offset " + offset, 1, read.size());
            all.add(read.get(0));
            offset = read.get(0).nextOffset();
        }
        return all;
    }

    /** The bytes of a batch from BaseOffset on, for byte-for-byte comparisons. */
    static ByteBuffer bytesOf(RecordBatch batch) {
        return batch.slice();
    }
}
