package io.millrace.bench.storage;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.util.Random;

/** Batches of 200-byte values, as in the paper's experiments, built once per trial. */
public final class BatchFixture {

    public static final int VALUE_BYTES = 200;

    private BatchFixture() {
    }

    /** One uncompressed batch of {@code records} records with random 200-byte values and no key. */
    public static ByteBuffer batch(int records, long timestamp) {
        Random random = new Random(42);
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, records * (VALUE_BYTES + 16) + 64);
        byte[] value = new byte[VALUE_BYTES];
        for (int i = 0; i < records; i++) {
            random.nextBytes(value);
            builder.append(timestamp + i, (byte[]) null, value);
        }
        return builder.build();
    }

    /** The size in bytes of {@link #batch}{@code (records, t)}: what every benchmark operation moves. */
    public static int batchBytes(int records) {
        return batch(records, 0L).remaining();
    }
}
