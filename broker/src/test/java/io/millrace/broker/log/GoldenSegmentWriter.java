package io.millrace.broker.log;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.MockTime;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes the golden partition checked in under {@code src/test/resources/golden/golden-0}: run
 * it once when the on-disk format changes on purpose, and commit the result.
 *
 * <pre>
 * mvn -q -o -pl broker -am test-compile
 * (cd broker &amp;&amp; mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=test)
 * java -cp "broker/target/test-classes:broker/target/classes:common/target/classes:testkit/target/classes:$(cat broker/target/classpath.txt)" \
 *     io.millrace.broker.log.GoldenSegmentWriter broker/src/test/resources/golden
 * </pre>
 *
 * The module {@code target/classes} come first so that stale installed jars of common and
 * testkit cannot shadow them.
 */
public final class GoldenSegmentWriter {

    static final String PARTITION = "golden-0";
    static final int BATCHES = 12;
    static final long BASE_TIMESTAMP = 1_600_000_000_000L;
    static final Map<String, Object> CONFIG = Map.of(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 600,
        LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 100);

    private GoldenSegmentWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path partitionDir = Path.of(args[0]).resolve(PARTITION);
        if (Files.exists(partitionDir)) {
            throw new IllegalStateException(partitionDir + " exists; delete it first to regenerate");
        }
        write(partitionDir);
    }

    static void write(Path partitionDir) {
        Log log = Log.open(partitionDir, new LogConfig(CONFIG), new MockTime(BASE_TIMESTAMP));
        try {
            for (int i = 0; i < BATCHES; i++) {
                log.append(batch(i));
            }
        } finally {
            log.close();
        }
    }

    /** Batch {@code i}: {@code i % 3 + 1} records, see {@link #key}, {@link #value}, {@link #timestamp}; batch 5 has a header. */
    static ByteBuffer batch(int i) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256);
        for (int r = 0; r < recordCount(i); r++) {
            byte[] key = key(i, r) == null ? null : key(i, r).getBytes(StandardCharsets.UTF_8);
            Header[] headers = i == 5 ? new Header[] {new Header("origin", "golden".getBytes(StandardCharsets.UTF_8))}
                : new Header[0];
            builder.append(timestamp(i, r), key, value(i, r).getBytes(StandardCharsets.UTF_8), headers);
        }
        return builder.build();
    }

    /** Batch {@code i} as stored, with the base offset the log gave it. */
    static ByteBuffer storedBatch(int i) {
        ByteBuffer batch = batch(i);
        RecordBatch.wrap(batch).setBaseOffset(baseOffset(i));
        return batch;
    }

    static int recordCount(int i) {
        return i % 3 + 1;
    }

    static long baseOffset(int i) {
        long offset = 0;
        for (int b = 0; b < i; b++) {
            offset += recordCount(b);
        }
        return offset;
    }

    static String key(int i, int r) {
        return i % 2 == 0 && r == 0 ? null : "key-" + i + "-" + r;
    }

    static String value(int i, int r) {
        return "value of record " + r + " in batch " + i;
    }

    static long timestamp(int i, int r) {
        return BASE_TIMESTAMP + i * 1000L + r;
    }
}
