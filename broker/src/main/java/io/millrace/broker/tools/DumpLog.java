package io.millrace.broker.tools;

import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordIterator;
import io.millrace.common.record.TimestampType;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * {@code bin/millrace dump-log <file.log> [--print-records]}: prints every record batch of a
 * segment's {@code .log} file (offsets, count, position, size, codec, max timestamp, whether its
 * CRC holds) and, with {@code --print-records}, every record (offset, timestamp, key, value as
 * UTF-8 text or hex), then a summary. The file is opened read-only, so it is safe on a live log.
 *
 * <p>Damage is reported, not thrown: a tail too short for the batch it starts (what a crash
 * leaves) is counted as a torn tail, and the scan stops at the first batch whose header cannot be
 * trusted, saying where recovery would cut the file. A batch whose CRC fails is shown and the scan
 * goes on, since its length still leads to the next batch. Exit status: 0 after a dump, damaged
 * or not; 1 if the file cannot be read; 2 for a usage error.
 */
public final class DumpLog {

    static final String USAGE = "usage: bin/millrace dump-log <file.log> [--print-records]";
    /** A length beyond this is taken for damage rather than read into memory. */
    private static final int MAX_BATCH_BYTES = RecordBatch.DEFAULT_MAX_RECORDS_BYTES;

    private final PrintStream out;
    private final boolean printRecords;

    DumpLog(PrintStream out, boolean printRecords) {
        this.out = out;
        this.printRecords = printRecords;
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** What {@link #main} does, with its streams given; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean printRecords = false;
        Path file = null;
        for (String arg : args) {
            if (arg.equals("--print-records")) {
                printRecords = true;
            } else if (file == null && !arg.startsWith("--")) {
                file = Path.of(arg);
            } else {
                err.println(USAGE);
                return 2;
            }
        }
        if (file == null) {
            err.println(USAGE);
            return 2;
        }
        try {
            new DumpLog(out, printRecords).dump(file);
            return 0;
        } catch (IOException e) {
            err.println("dump-log: cannot read " + file + ": " + e);
            return 1;
        }
    }

    /** Prints the file's batches and a summary, and returns the summary. */
    Summary dump(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            out.printf(Locale.ROOT, "Dumping %s (%,d bytes)%n", file, size);
            Summary summary = scan(channel, size);
            printSummary(summary, size);
            return summary;
        }
    }

    private Summary scan(FileChannel channel, long size) throws IOException {
        Summary summary = new Summary();
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        long position = 0;
        while (position < size && summary.stopReason == null) {
            buffer = readBatch(channel, position, size, buffer, summary);
            if (buffer == null) {
                break;
            }
            int batchSize = showBatch(RecordBatch.wrap(buffer, 0), position, summary);
            position += batchSize;
        }
        summary.scannedBytes = position;
        return summary;
    }

    /**
     * The whole batch at {@code position} in {@code scratch} or a larger buffer, or null when the
     * file ends inside it (a torn tail) or its length cannot be believed (then the summary says why).
     */
    private static ByteBuffer readBatch(FileChannel channel, long position, long size, ByteBuffer scratch, Summary summary)
        throws IOException {
        long remaining = size - position;
        if (remaining < RecordBatch.LOG_OVERHEAD) {
            summary.tear(position, remaining, -1);
            return null;
        }
        ByteBuffer overhead = scratch.clear().limit(RecordBatch.LOG_OVERHEAD);
        readFully(channel, overhead, position);
        int length = overhead.getInt(RecordBatch.LOG_OVERHEAD - Integer.BYTES);
        if (length < RecordBatch.MIN_LENGTH || length > MAX_BATCH_BYTES) {
            summary.stop(position, "its length field says " + length + " bytes");
            return null;
        }
        long batchSize = (long) RecordBatch.LOG_OVERHEAD + length;
        if (batchSize > remaining) {
            summary.tear(position, remaining, batchSize);
            return null;
        }
        ByteBuffer batch = scratch.capacity() >= batchSize ? scratch : ByteBuffer.allocate((int) batchSize);
        batch.clear().limit((int) batchSize);
        readFully(channel, batch, position);
        return batch.flip();
    }

    /** Prints one batch (and its records if asked); returns its size, or stops the scan at a header that fails its checks. */
    private int showBatch(RecordBatch batch, long position, Summary summary) {
        try {
            batch.ensureReadableHeader(batch.buffer().limit());
        } catch (InvalidRecordException e) {
            summary.stop(position, e.getMessage());
            return 0;
        }
        boolean crcValid = batch.isValid();
        out.printf(Locale.ROOT, "baseOffset: %d lastOffset: %d count: %d position: %d size: %d codec: %s "
                + "maxTimestamp: %d (%s%s) crc: %s%n",
            batch.baseOffset(), batch.lastOffset(), batch.recordCount(), position, batch.sizeInBytes(),
            batch.compressionType().configName, batch.maxTimestamp(), RecordText.timestamp(batch.maxTimestamp()),
            batch.timestampType() == TimestampType.LOG_APPEND_TIME ? ", LogAppendTime" : "",
            crcValid ? "valid" : "INVALID (stored " + batch.checksum() + ", computed " + batch.computeChecksum() + ")");
        summary.count(batch, position, crcValid);
        if (printRecords) {
            showRecords(batch);
        }
        return batch.sizeInBytes();
    }

    private void showRecords(RecordBatch batch) {
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                out.printf(Locale.ROOT, "| offset: %d timestamp: %d (%s) key: %s value: %s%n", record.offset(),
                    record.timestamp(), RecordText.timestamp(record.timestamp()), RecordText.bytes(record.key()),
                    RecordText.bytes(record.value()));
            }
        } catch (InvalidRecordException e) {
            out.println("| cannot read the records of this batch: " + e.getMessage());
        }
    }

    private void printSummary(Summary s, long size) {
        out.println();
        String offsets = s.batches == 0 ? "no offsets" : "offsets " + s.firstOffset + " to " + s.lastOffset;
        out.printf(Locale.ROOT, "Summary: %d batches, %d records, %s, %,d of %,d bytes in whole batches%s.%n",
            s.batches, s.records, offsets, s.scannedBytes, size,
            s.invalidCrcs == 0 ? "" : ", " + s.invalidCrcs + " with an invalid CRC");
        if (s.tornAt >= 0) {
            out.printf(Locale.ROOT, "Torn tail: %,d bytes from position %,d are %s, cut short as a crash mid-write leaves it.%n",
                s.tornBytes, s.tornAt,
                s.tornBatchSize > 0 ? "the start of a " + s.tornBatchSize + "-byte batch" : "too few to say how long its batch was");
        }
        if (s.stoppedAt >= 0) {
            out.printf(Locale.ROOT, "Damaged batch at position %,d: %s; the scan stopped there.%n", s.stoppedAt, s.stopReason);
        }
        long cut = s.recoveryCut();
        if (cut < 0) {
            out.println("No torn tail or damage: recovery would keep the whole file.");
        } else {
            out.printf(Locale.ROOT, "Recovery would truncate the file to %,d bytes.%n", cut);
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, at);
            if (read < 0) {
                throw new IOException("The file shrank while it was read, at position " + at);
            }
            at += read;
        }
    }

    /** What a dump found; for the summary line and for tests. */
    static final class Summary {
        int batches;
        long records;
        long firstOffset = -1;
        long lastOffset = -1;
        int invalidCrcs;
        long firstInvalidCrcAt = -1;
        long scannedBytes;
        long tornAt = -1;
        long tornBytes;
        long tornBatchSize = -1;
        long stoppedAt = -1;
        String stopReason;

        void count(RecordBatch batch, long position, boolean crcValid) {
            batches++;
            records += batch.recordCount();
            if (firstOffset < 0) {
                firstOffset = batch.baseOffset();
            }
            lastOffset = batch.lastOffset();
            if (!crcValid) {
                invalidCrcs++;
                firstInvalidCrcAt = firstInvalidCrcAt < 0 ? position : firstInvalidCrcAt;
            }
        }

        void tear(long position, long bytes, long batchSize) {
            tornAt = position;
            tornBytes = bytes;
            tornBatchSize = batchSize;
        }

        void stop(long position, String reason) {
            stoppedAt = position;
            stopReason = reason;
        }

        /** Where recovery would cut the file: at the first invalid CRC, damaged header or torn tail; -1 if nowhere. */
        long recoveryCut() {
            long cut = -1;
            for (long at : new long[] {firstInvalidCrcAt, stoppedAt, tornAt}) {
                if (at >= 0 && (cut < 0 || at < cut)) {
                    cut = at;
                }
            }
            return cut;
        }
    }
}
