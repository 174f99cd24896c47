package io.millrace.broker.log;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.record.RecordBatch;
import io.millrace.common.utils.Time;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Kills a JVM that appends with {@code log.flush.interval.messages=1} (SIGKILL, at a random
 * moment), recovers its log, and checks that every offset it reported durable is present and
 * intact. A process kill leaves the page cache alone, so this proves recovery of whatever state
 * the kill leaves (including a batch cut mid-write), and that awaitFlushed never reports an
 * offset before it was appended; power loss itself cannot be simulated here.
 */
public class LogCrashTest {

    private static final int ROUNDS = 4;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void everyOffsetReportedFlushedSurvivesAKill() throws Exception {
        Path logDir = temp.newFolder("crash-logs").toPath();
        Random random = new Random();
        long previousEnd = 0;
        for (int round = 0; round < ROUNDS; round++) {
            List<Long> reported = runAndKill(logDir, 50 + random.nextInt(800));
            assertTrue("the victim reported flushes", !reported.isEmpty());
            previousEnd = checkRecovered(logDir, reported, previousEnd);
        }
    }

    /** Runs the appender until it has reported {@code flushes} offsets (or 4 s passed), then kills it. */
    private List<Long> runAndKill(Path logDir, int flushes) throws Exception {
        Process process = new ProcessBuilder(javaExecutable(), "-Xmx256m", "-cp", testClassPath(),
            CrashingAppender.class.getName(), logDir.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        List<Long> reported = new CopyOnWriteArrayList<>();
        CountDownLatch enough = new CountDownLatch(1);
        Thread readerThread = new Thread(() -> collect(process, reported, flushes, enough));
        readerThread.start();
        enough.await(4, TimeUnit.SECONDS);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        readerThread.join(10_000);
        return List.copyOf(reported);
    }

    private static void collect(Process process, List<Long> reported, int flushes, CountDownLatch enough) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(CrashingAppender.FLUSHED)) {
                    reported.add(Long.parseLong(line.substring(CrashingAppender.FLUSHED.length()).trim()));
                }
                if (reported.size() >= flushes) {
                    enough.countDown();
                }
            }
        } catch (IOException | NumberFormatException e) {
            // The kill cuts the stream, possibly mid-line: what was read whole is what was reported.
        } finally {
            enough.countDown();
        }
    }

    /** Recovers the log and checks every reported offset; returns the recovered end offset. */
    private long checkRecovered(Path logDir, List<Long> reported, long previousEnd) throws IOException {
        LogManager manager = new LogManager(LogConfig.defaults(), List.of(logDir), Time.SYSTEM);
        manager.startup();
        try {
            Log log = manager.getLog(CrashingAppender.TOPIC, 0).orElseThrow();
            long maxReported = reported.stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue("log end " + log.logEndOffset() + " covers offset " + maxReported, log.logEndOffset() > maxReported);
            assertTrue("earlier rounds kept", log.logEndOffset() >= previousEnd);
            for (long offset : reported) {
                RecordBatch batch = LogTestUtils.batches(log.read(offset, 1, true)).get(0);
                long n = offset / CrashingAppender.RECORDS_PER_BATCH;
                assertEquals("offset " + offset, CrashingAppender.storedBatch(n), batch.slice());
            }
            assertEquals(log.logEndOffset(), LogTestUtils.readAll(log).size() * (long) CrashingAppender.RECORDS_PER_BATCH);
            return log.logEndOffset();
        } finally {
            manager.shutdown();
        }
    }

    private static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Surefire runs tests from a manifest-only jar; it publishes the real class path in this property. */
    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }
}
