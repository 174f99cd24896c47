package io.millrace.bench.storage;

import io.millrace.broker.log.FileSlice;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogAppendInfo;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileNames;
import io.millrace.common.utils.Time;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The partition log's append and read beside raw {@link FileChannel} I/O of the same bytes, on
 * the same filesystem, in the same run. Every operation moves one batch of {@code batchSize}
 * records with 200-byte values ({@link BatchFixture}), so records/s = ops/s × batchSize and
 * bytes/s = ops/s × {@link BatchFixture#batchBytes}; {@code tools.StorageReport} prints both.
 *
 * <ul>
 *   <li>{@code rawWrite}: a positional {@code FileChannel.write} of the batch's bytes at the end of
 *       a file, what {@code FileRecords.append} must do at the least.</li>
 *   <li>{@code logAppend}: {@link Log#append} of the same batch: validation (header, CRC),
 *       offset assignment in place, the write, indexing, publication.</li>
 *   <li>{@code rawRead}: a positional read of one batch-sized chunk into a direct buffer, walking
 *       a prewritten file front to back and wrapping around.</li>
 *   <li>{@code logRead}: {@link Log#read} of the next batch's offset (offset lookup, slice), then
 *       reading the slice into the same kind of direct buffer, wrapping around the same way.</li>
 * </ul>
 *
 * <p>The writers get a fresh file or log per iteration, deleted in the teardown, so disk use stays
 * bounded; the readers prewrite {@value #READ_FILE_BYTES_PROPERTY} bytes (default 256 MiB) once
 * per trial, fsync them, and read them from the page cache. The log runs with
 * {@link LogConfig#defaults()}: 1 GiB segments (so a roll is rare but happens, and hands the
 * finished segment to the flusher thread for an fsync), an index entry every 4 KiB, and no
 * flush policy, so appends stop at the page cache, as in Kafka's defaults and the paper's
 * asynchronous flush ({@value #SEGMENT_BYTES_PROPERTY} changes the segment size). Files go under
 * {@value BenchFiles#DIR_PROPERTY} (default {@code java.io.tmpdir}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PartitionLogBenchmark {

    /** Bytes the read benchmarks prewrite and then cycle through. */
    public static final String READ_FILE_BYTES_PROPERTY = "millrace.bench.readFileBytes";
    private static final long DEFAULT_READ_FILE_BYTES = 256L * 1024 * 1024;
    /** Overrides {@code log.segment.bytes} (default 1 GiB), e.g. to keep rolls out of an iteration. */
    public static final String SEGMENT_BYTES_PROPERTY = "millrace.bench.segmentBytes";
    /** The topic-partition directory name every benchmark log gets. */
    private static final String PARTITION_DIR = "bench-0";

    /** Kafka's defaults (flush off, 4 KiB index interval), with the segment size from {@value #SEGMENT_BYTES_PROPERTY}. */
    static LogConfig logConfig() {
        String segmentBytes = System.getProperty(SEGMENT_BYTES_PROPERTY);
        return segmentBytes == null ? LogConfig.defaults()
            : new LogConfig(Map.of(LogConfig.LOG_SEGMENT_BYTES_CONFIG, segmentBytes));
    }

    @Benchmark
    public int rawWrite(RawWriter writer) throws IOException {
        return writer.append();
    }

    @Benchmark
    public LogAppendInfo logAppend(LogAppender appender) {
        // The log rewrites the base offset in place; the bytes (and so the CRC) stay the same.
        return appender.log.append(appender.batch.duplicate());
    }

    @Benchmark
    public int rawRead(RawReader reader) throws IOException {
        return reader.readNext();
    }

    @Benchmark
    public int logRead(LogReader reader) throws IOException {
        return reader.readNext();
    }

    /** The batch that every operation of a benchmark moves, built once per trial. */
    @State(Scope.Thread)
    public abstract static class BatchState {

        @Param({"1", "50", "1000"})
        public int batchSize;

        ByteBuffer batch;

        void buildBatch() {
            batch = BatchFixture.batch(batchSize, System.currentTimeMillis());
        }

        /** Whole batches that fill the read file, rounded up. */
        int batchesToPrewrite() {
            long bytes = Long.getLong(READ_FILE_BYTES_PROPERTY, DEFAULT_READ_FILE_BYTES);
            return (int) ((bytes + batch.remaining() - 1) / batch.remaining());
        }
    }

    /** A fresh, empty file per iteration, appended to with positional writes. */
    @State(Scope.Thread)
    public static class RawWriter extends BatchState {

        private Path dir;
        private FileChannel channel;
        private long end;

        @Setup(Level.Trial)
        public void build() {
            buildBatch();
        }

        @Setup(Level.Iteration)
        public void open() throws IOException {
            dir = BenchFiles.newDir("raw-write-");
            channel = FileChannel.open(dir.resolve("raw.log"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            end = 0;
        }

        int append() throws IOException {
            int written = BenchFiles.writeFully(channel, batch.duplicate(), end);
            end += written;
            return written;
        }

        @TearDown(Level.Iteration)
        public void delete() throws IOException {
            channel.close();
            BenchFiles.delete(dir);
        }
    }

    /** A fresh, empty log per iteration. */
    @State(Scope.Thread)
    public static class LogAppender extends BatchState {

        private Path dir;
        Log log;

        @Setup(Level.Trial)
        public void build() {
            buildBatch();
        }

        @Setup(Level.Iteration)
        public void open() {
            dir = BenchFiles.newDir("log-append-");
            log = Log.open(dir.resolve(PARTITION_DIR), logConfig(), Time.SYSTEM);
        }

        /**
         * Empties the segment files before closing, so that the close's fsync has nothing to write:
         * the raw writer's file is deleted with its pages still dirty, and the log's should leave
         * the disk as idle for the next iteration. Fsyncs that rolls started stay in the measurement.
         */
        @TearDown(Level.Iteration)
        public void delete() throws IOException {
            try (DirectoryStream<Path> segments = Files.newDirectoryStream(log.dir(), "*" + LogFileNames.LOG_SUFFIX)) {
                for (Path segment : segments) {
                    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
                        channel.truncate(0);
                    }
                }
            }
            log.close();
            BenchFiles.delete(dir);
        }
    }

    /** A prewritten, fsynced file of whole batches, read one batch-sized chunk at a time. */
    @State(Scope.Thread)
    public static class RawReader extends BatchState {

        private Path dir;
        private FileChannel channel;
        private ByteBuffer buffer;
        private long size;
        private long position;

        @Setup(Level.Trial)
        public void prewrite() throws IOException {
            buildBatch();
            dir = BenchFiles.newDir("raw-read-");
            Path file = dir.resolve("raw.log");
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                for (int i = batchesToPrewrite(); i > 0; i--) {
                    size += BenchFiles.writeFully(out, batch.duplicate(), size);
                }
                out.force(true);
            }
            channel = FileChannel.open(file, StandardOpenOption.READ);
            buffer = ByteBuffer.allocateDirect(batch.remaining());
        }

        int readNext() throws IOException {
            buffer.clear();
            int read = BenchFiles.readFully(channel, buffer, position);
            position += read;
            if (position == size) {
                position = 0;
            }
            return read;
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            channel.close();
            BenchFiles.delete(dir);
        }
    }

    /** A prewritten, flushed log of the same batches, read one batch (by offset) at a time. */
    @State(Scope.Thread)
    public static class LogReader extends BatchState {

        private Path dir;
        private Log log;
        private ByteBuffer buffer;
        private long endOffset;
        private long nextOffset;

        @Setup(Level.Trial)
        public void prewrite() throws IOException {
            buildBatch();
            dir = BenchFiles.newDir("log-read-");
            log = Log.open(dir.resolve(PARTITION_DIR), logConfig(), Time.SYSTEM);
            for (int i = batchesToPrewrite(); i > 0; i--) {
                log.append(batch.duplicate());
            }
            log.flush();
            endOffset = log.logEndOffset();
            buffer = ByteBuffer.allocateDirect(batch.remaining());
            if (readNext() != batch.remaining()) {
                throw new IllegalStateException("A read of one batch's bytes did not return exactly one batch");
            }
            nextOffset = 0;
        }

        int readNext() throws IOException {
            FileSlice slice = log.read(nextOffset, buffer.capacity(), true);
            // A slice larger than one batch would not fit the limit: fail rather than measure the wrong thing.
            buffer.clear().limit(slice.sizeInBytes());
            int read = BenchFiles.readFully(slice.channel(), buffer, slice.position());
            nextOffset += batchSize;
            if (nextOffset == endOffset) {
                nextOffset = 0;
            }
            return read;
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            log.close();
            BenchFiles.delete(dir);
        }
    }
}
