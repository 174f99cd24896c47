package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogAppendInfo;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileNames;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.utils.Time;
import io.millrace.testkit.FileCorrupter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Builds a log, damages it in the usual ways, and checks what dump-log prints. */
public class DumpLogTest {

    private static final int BATCHES = 7;
    private static final int RECORDS_PER_BATCH = 3;
    private static final long TIMESTAMP = 1_700_000_000_000L;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private Path segment;
    /** Position and size of each batch in the segment file. */
    private final List<long[]> layout = new ArrayList<>();

    @Before
    public void buildLog() throws IOException {
        Path dir = temp.newFolder("clicks-0").toPath();
        try (Log log = Log.open(dir, LogConfig.defaults(), Time.SYSTEM)) {
            CompressionType[] codecs = CompressionType.values();
            for (int b = 0; b < BATCHES; b++) {
                LogAppendInfo info = log.append(batch(codecs[b % codecs.length], b));
                long position = log.read(info.firstOffset(), 1, true).position();
                layout.add(new long[] {position, info.sizeInBytes()});
            }
        }
        segment = LogFileNames.logFile(dir, 0);
    }

    private static ByteBuffer batch(CompressionType codec, int b) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(codec, 0, 256);
        for (int r = 0; r < RECORDS_PER_BATCH; r++) {
            builder.append(TIMESTAMP + b, ("user-" + r).getBytes(StandardCharsets.UTF_8),
                ("view " + b + "." + r).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    @Test
    public void countsEveryBatchOfAnIntactLog() throws IOException {
        assertEquals(0, run(segment.toString()));
        String printed = stdout();
        assertEquals(BATCHES, printed.lines().filter(l -> l.startsWith("baseOffset: ")).count());
        assertTrue(printed, printed.contains("baseOffset: 3 lastOffset: 5 count: 3 position: " + layout.get(1)[0]
            + " size: " + layout.get(1)[1] + " codec: gzip maxTimestamp: 1700000000001 (2023-11-14T22:13:20.001Z) crc: valid"));
        assertTrue(printed, printed.contains("Summary: 7 batches, 21 records, offsets 0 to 20"));
        assertTrue(printed, printed.contains("No torn tail or damage"));
        assertTrue(printed, printed.lines().noneMatch(l -> l.startsWith("| offset:")));
    }

    @Test
    public void printsRecordsAsTextOrHex() throws IOException {
        Path file = temp.newFile("00000000000000000000.log").toPath();
        ByteBuffer batch = RecordBatchBuilder.create(CompressionType.ZSTD, 0, 256)
            .append(TIMESTAMP, (byte[]) null, "héllo".getBytes(StandardCharsets.UTF_8))
            .append(TIMESTAMP, new byte[] {0, (byte) 0xff, 0x10}, new byte[] {'a', '\n'})
            .build();
        Files.write(file, toArray(batch));
        assertEquals(0, run(file.toString(), "--print-records"));
        String printed = stdout();
        assertTrue(printed, printed.contains("| offset: 0 timestamp: 1700000000000 (2023-11-14T22:13:20Z) key: null value: héllo"));
        assertTrue(printed, printed.contains("| offset: 1 timestamp: 1700000000000 (2023-11-14T22:13:20Z) key: 0x00ff10 value: 0x610a"));
    }

    @Test
    public void reportsATornTailInsteadOfThrowing() throws IOException {
        long[] last = layout.get(BATCHES - 1);
        FileCorrupter.truncate(segment, last[0] + last[1] / 2);
        assertEquals(0, run(segment.toString(), "--print-records"));
        String printed = stdout();
        assertTrue(printed, printed.contains("Summary: 6 batches, 18 records, offsets 0 to 17"));
        assertTrue(printed, printed.contains("Torn tail: " + last[1] / 2 + " bytes from position " + last[0]
            + " are the start of a " + last[1] + "-byte batch"));
        assertTrue(printed, printed.contains("Recovery would truncate the file to " + last[0] + " bytes."));
    }

    @Test
    public void aTailTooShortForALengthIsStillATornTail() throws IOException {
        long[] last = layout.get(BATCHES - 1);
        FileCorrupter.truncate(segment, last[0] + 5);
        assertEquals(0, run(segment.toString()));
        assertTrue(stdout(), stdout().contains("Torn tail: 5 bytes from position " + last[0] + " are too few"));
        assertTrue(stdout(), stdout().contains("Recovery would truncate the file to " + last[0] + " bytes."));
    }

    @Test
    public void reportsAnInvalidCrcAndCarriesOn() throws IOException {
        long[] third = layout.get(2);
        FileCorrupter.flipByte(segment, third[0] + third[1] - 1);
        assertEquals(0, run(segment.toString()));
        String printed = stdout();
        assertTrue(printed, printed.contains("baseOffset: 6 lastOffset: 8 count: 3 position: " + third[0]));
        assertTrue(printed, printed.contains("crc: INVALID (stored "));
        assertTrue(printed, printed.contains("Summary: 7 batches, 21 records, offsets 0 to 20, "));
        assertTrue(printed, printed.contains("1 with an invalid CRC"));
        assertTrue(printed, printed.contains("Recovery would truncate the file to " + third[0] + " bytes."));
    }

    @Test
    public void stopsAtAHeaderItCannotTrust() throws IOException {
        long[] fourth = layout.get(3);
        // Magic sits right after BaseOffset, Length and PartitionLeaderEpoch.
        FileCorrupter.flipByte(segment, fourth[0] + 16);
        assertEquals(0, run(segment.toString()));
        String printed = stdout();
        assertTrue(printed, printed.contains("Summary: 3 batches, 9 records, offsets 0 to 8"));
        assertTrue(printed, printed.contains("Damaged batch at position " + fourth[0] + ": "));
        assertTrue(printed, printed.contains("magic"));
    }

    @Test
    public void anEmptyFileHasNothingToReport() throws IOException {
        Path file = temp.newFile("empty.log").toPath();
        assertEquals(0, run(file.toString()));
        assertTrue(stdout(), stdout().contains("Summary: 0 batches, 0 records, no offsets, 0 of 0 bytes"));
    }

    @Test
    public void usageAndUnreadableFilesGiveExitStatuses() throws IOException {
        assertEquals(2, run());
        assertEquals(2, run(segment.toString(), "--bogus"));
        assertTrue(stderr(), stderr().startsWith(DumpLog.USAGE));
        assertEquals(1, run(temp.getRoot().toPath().resolve("missing.log").toString()));
        assertTrue(stderr(), stderr().contains("cannot read"));
    }

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private int run(String... args) {
        return DumpLog.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
