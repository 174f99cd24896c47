package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogConfig;
import io.millrace.common.record.CompressionType;
import io.millrace.common.utils.Time;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Runs the demo as bin/millrace does and checks what it tells the user, and what it leaves on disk. */
public class LogDemoTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    public void demoRecoversAllButTheTornBatchAndAppendsCarryOn() throws IOException {
        Path base = temp.newFolder().toPath();
        assertEquals(0, run("--dir", base.toString()));
        String printed = stdout();
        for (CompressionType codec : CompressionType.values()) {
            assertTrue(codec + " batch appended:\n" + printed, printed.matches("(?s).*offsets +\\d+-\\d+ +" + codec.configName + " .*"));
        }
        assertTrue(printed, printed.contains("is offset 28 ("));
        assertTrue(printed, printed.contains("halfway through the batch of offsets 45-49"));
        assertTrue(printed, printed.contains("Recovered 45 records, offsets 0-44. Log end offset: 45"));
        assertTrue(printed, printed.contains("a new batch got offsets 45-49. Log end offset: 50"));
    }

    @Test
    public void theLogLeftBehindHoldsFiftyRecords() throws IOException {
        Path base = temp.newFolder().toPath();
        run("--dir", base.toString());
        try (Log log = Log.open(base.resolve(LogDemo.PARTITION), LogConfig.defaults(), Time.SYSTEM)) {
            assertEquals(LogDemo.BATCHES * LogDemo.EVENTS_PER_BATCH, log.logEndOffset());
        }
    }

    @Test
    public void mainPrintsToStandardOutput() throws IOException {
        Path base = temp.newFolder().toPath();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            LogDemo.main(new String[] {"--dir", base.toString()});
        } finally {
            System.setOut(original);
        }
        assertTrue(stdout(), stdout().contains("Log end offset: 50"));
    }

    @Test
    public void refusesADirectoryThatAlreadyHoldsTheDemoLog() throws IOException {
        Path base = temp.newFolder().toPath();
        assertEquals(0, run("--dir", base.toString()));
        assertEquals(2, run("--dir", base.toString()));
        assertTrue(stderr(), stderr().contains("already holds a log"));
    }

    @Test
    public void unknownArgumentsGetTheUsage() throws IOException {
        assertEquals(2, run("--bogus"));
        assertTrue(stderr(), stderr().startsWith(LogDemo.USAGE));
    }

    private int run(String... args) throws IOException {
        return LogDemo.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
