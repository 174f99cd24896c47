package io.millrace.broker.tools;

import io.millrace.broker.log.FileSlice;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogAppendInfo;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileNames;
import io.millrace.broker.log.TimestampAndOffset;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import io.millrace.common.utils.Time;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code bin/millrace demo}: a tour of the partition log on local disk in a few seconds. It
 * appends batches of page-view events (key: user id, value: JSON) with each codec in turn, reads
 * records back by offset, looks an offset up by time, closes the log, then plays a crash: it cuts
 * the last segment's {@code .log} in the middle of its last batch and deletes its {@code .index}.
 * Reopening runs recovery, which drops the torn batch and rebuilds the index (the log reports it
 * on stderr), and appends carry on at the offset after the last whole batch.
 *
 * <p>{@code --dir DIR} puts the partition directory {@value #PARTITION} under DIR (which must not
 * hold one already); without it, a new temporary directory is used and left for
 * {@code bin/millrace dump-log}. The segment size is 2 KiB so that the demo rolls a few segments.
 */
public final class LogDemo {

    static final String PARTITION = "page-views-0";
    static final String USAGE = "usage: bin/millrace demo [--dir DIR]";
    static final int BATCHES = 10;
    static final int EVENTS_PER_BATCH = 5;

    private static final int SEGMENT_BYTES = 2048;
    private static final String[] PAGES = {"/", "/pricing", "/docs/quickstart", "/blog/kafka-paper", "/signup"};
    private static final String[] REFERRERS = {"search", "newsletter", "direct", "social"};
    private static final long[] OFFSETS_TO_SHOW = {0, 7, 23, 41};

    private final Path dir;
    private final PrintStream out;
    private final LogConfig config = new LogConfig(Map.of(LogConfig.LOG_SEGMENT_BYTES_CONFIG, SEGMENT_BYTES,
        LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 256));
    private final Random random = new Random(2011);
    // Event n (= its offset) happens n seconds after this, so the demo can look offsets up by time.
    private final long firstEventMs = (System.currentTimeMillis() / 1000 - 600) * 1000;

    /** The last batch appended before the crash, which the crash tears. */
    private record Victim(Path logFile, Path indexFile, long position, int size, long firstOffset, long lastOffset) {
    }

    LogDemo(Path dir, PrintStream out) {
        this.dir = dir;
        this.out = out;
    }

    public static void main(String[] args) throws IOException {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** What {@link #main} does, with its streams given; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        Path base;
        if (args.length == 0) {
            base = Files.createTempDirectory("millrace-demo-");
        } else if (args.length == 2 && args[0].equals("--dir")) {
            base = Path.of(args[1]);
        } else {
            err.println(USAGE);
            return 2;
        }
        Path dir = base.resolve(PARTITION);
        if (Files.isDirectory(dir) && !isEmpty(dir)) {
            err.println("demo: " + dir + " already holds a log; give a --dir without one");
            return 2;
        }
        new LogDemo(dir, out).run();
        return 0;
    }

    void run() throws IOException {
        long started = System.nanoTime();
        out.println("Millrace partition log demo, in " + dir);
        Victim victim;
        try (Log log = Log.open(dir, config, Time.SYSTEM)) {
            LogAppendInfo last = appendEvents(log);
            readBack(log);
            lookUpByTime(log);
            victim = victim(log, last);
        }
        out.println("4. Closed the log: every segment fsynced, its indexes trimmed.");
        long cutSize = crash(victim);
        try (Log log = Log.open(dir, config, Time.SYSTEM)) {
            reportRecovery(log, victim, cutSize);
            appendAfterRecovery(log);
        }
        out.printf(Locale.ROOT, "Done in %.1f s. Look inside: bin/millrace dump-log %s --print-records%n",
            (System.nanoTime() - started) / 1e9, victim.logFile());
    }

    // ---- 1. append ---------------------------------------------------------------------------

    private LogAppendInfo appendEvents(Log log) {
        out.printf(Locale.ROOT, "1. Append %d batches of %d page views (key: user id, value: JSON), codecs in turn:%n",
            BATCHES, EVENTS_PER_BATCH);
        LogAppendInfo info = null;
        CompressionType[] codecs = CompressionType.values();
        for (int b = 0; b < BATCHES; b++) {
            CompressionType codec = codecs[b % codecs.length];
            info = log.append(pageViews(codec, log.logEndOffset()));
            out.printf(Locale.ROOT, "   offsets %2d-%-2d  %-6s  %4d bytes%n", info.firstOffset(), info.lastOffset(),
                codec.configName, info.sizeInBytes());
        }
        out.printf(Locale.ROOT, "   %d records, %,d bytes in %d segments (base offsets %s; segment.bytes=%d)%n",
            log.logEndOffset(), log.size(), log.numberOfSegments(),
            log.segmentBaseOffsets().stream().map(String::valueOf).collect(Collectors.joining(", ")), SEGMENT_BYTES);
        return info;
    }

    /** A batch of page views that will take offsets from {@code firstOffset} on. */
    private ByteBuffer pageViews(CompressionType codec, long firstOffset) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(codec, 0, 1024);
        for (long offset = firstOffset; offset < firstOffset + EVENTS_PER_BATCH; offset++) {
            String user = String.format(Locale.ROOT, "user-%02d", random.nextInt(40));
            String event = String.format(Locale.ROOT, "{\"user\":\"%s\",\"page\":\"%s\",\"referrer\":\"%s\",\"ms\":%d}",
                user, PAGES[random.nextInt(PAGES.length)], REFERRERS[random.nextInt(REFERRERS.length)],
                100 + random.nextInt(5000));
            builder.append(eventTime(offset), user.getBytes(StandardCharsets.UTF_8), event.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    private long eventTime(long offset) {
        return firstEventMs + offset * 1000;
    }

    // ---- 2. and 3. read ----------------------------------------------------------------------

    private void readBack(Log log) throws IOException {
        out.println("2. Read back by offset (a read returns the batch holding the offset; the reader inflates it):");
        for (long offset : OFFSETS_TO_SHOW) {
            ByteBuffer batches = log.read(offset, 1, true).readFully();
            for (RecordBatch batch : RecordBatchIterator.batches(batches)) {
                printRecordAt(batch, offset);
            }
        }
    }

    private void printRecordAt(RecordBatch batch, long offset) {
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                if (record.offset() == offset) {
                    out.printf(Locale.ROOT, "   offset %2d  %-6s  %s  key=%s  %s%n", offset, batch.compressionType().configName,
                        RecordText.timestamp(record.timestamp()), RecordText.bytes(record.key()),
                        RecordText.bytes(record.value()));
                }
            }
        }
    }

    /** Looks up a time inside an uncompressed batch, where the answer is exact to the record. */
    private void lookUpByTime(Log log) {
        long target = eventTime(28) - 500;
        TimestampAndOffset found = log.offsetForTimestamp(target).orElseThrow();
        out.printf(Locale.ROOT, "3. Look up by time: the first record at or after %s is offset %d (%s).%n",
            RecordText.timestamp(target), found.offset(), RecordText.timestamp(found.timestamp()));
    }

    // ---- 4. to 7. crash, recover, carry on ---------------------------------------------------

    private Victim victim(Log log, LogAppendInfo last) {
        long segment = log.segmentBaseOffsets().get(log.numberOfSegments() - 1);
        FileSlice slice = log.read(last.firstOffset(), 1, true);
        return new Victim(LogFileNames.logFile(dir, segment), LogFileNames.offsetIndexFile(dir, segment),
            slice.position(), slice.sizeInBytes(), last.firstOffset(), last.lastOffset());
    }

    /** Tears the victim batch and deletes its segment's offset index; returns the torn file's size. */
    private long crash(Victim victim) throws IOException {
        long cut = victim.position() + victim.size() / 2;
        try (FileChannel channel = FileChannel.open(victim.logFile(), StandardOpenOption.WRITE)) {
            channel.truncate(cut);
        }
        Files.delete(victim.indexFile());
        out.printf(Locale.ROOT, "5. Crash: cut %s to %,d bytes, halfway through the batch of offsets %d-%d, and deleted %s.%n",
            victim.logFile().getFileName(), cut, victim.firstOffset(), victim.lastOffset(), victim.indexFile().getFileName());
        return cut;
    }

    private void reportRecovery(Log log, Victim victim, long cutSize) throws IOException {
        long droppedBytes = cutSize - Files.size(victim.logFile());
        out.printf(Locale.ROOT, "6. Reopened: recovery dropped the torn batch (%d bytes of offsets %d-%d; its report is on "
            + "stderr) and rebuilt %s.%n", droppedBytes, victim.firstOffset(), victim.lastOffset(),
            victim.indexFile().getFileName());
        out.printf(Locale.ROOT, "   Recovered %d records, offsets %d-%d. Log end offset: %d%n",
            log.logEndOffset() - log.logStartOffset(), log.logStartOffset(), log.logEndOffset() - 1, log.logEndOffset());
    }

    private void appendAfterRecovery(Log log) {
        LogAppendInfo info = log.append(pageViews(CompressionType.LZ4, log.logEndOffset()));
        out.printf(Locale.ROOT, "7. Appends carry on: a new batch got offsets %d-%d. Log end offset: %d%n",
            info.firstOffset(), info.lastOffset(), log.logEndOffset());
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
