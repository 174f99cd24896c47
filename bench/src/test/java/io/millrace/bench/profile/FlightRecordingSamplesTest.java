package io.millrace.bench.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Records this JVM with JFR while a named thread spins in a known method, then reads the file back. */
public class FlightRecordingSamplesTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static volatile long sink;

    @Test
    public void samplesLandUnderTheirThreadAndWindow() throws Exception {
        Path file = tmp.getRoot().toPath().resolve("spin.jfr");
        Instant spinStart;
        Instant spinEnd;
        Instant idleStart;
        Instant idleEnd;
        try (Recording recording = new Recording()) {
            recording.enable(FlightRecordingSamples.EXECUTION_SAMPLE).withPeriod(java.time.Duration.ofMillis(1));
            recording.setDestination(file);
            recording.start();
            spinStart = Instant.now();
            Thread spinner = new Thread(() -> spinFor(500), "spinner-42");
            spinner.start();
            spinner.join();
            spinEnd = Instant.now();
            idleStart = Instant.now();
            Thread.sleep(200);
            idleEnd = Instant.now();
            recording.stop();
        }
        assertTrue(Files.size(file) > 0);

        Map<String, CallTree> trees = FlightRecordingSamples.read(file, Map.of(
            "spin", List.of(new TimeWindow(spinStart, spinEnd)),
            "idle", List.of(new TimeWindow(idleStart, idleEnd))));
        CallTree spin = trees.get("spin");
        CallTree.Node thread = spin.root().children().stream().filter(n -> n.frame().equals("spinner-N")).findFirst()
            .orElseThrow(() -> new AssertionError("no samples of spinner-N in " + spin.root().children().stream()
                .map(CallTree.Node::frame).toList()));
        // JFR takes fewer samples than its period promises (about 250 a second here at 1 ms)
        assertTrue("dozens of 1 ms samples in 500 ms of CPU spinning: " + thread.samples(), thread.samples() >= 25);
        String spinFrame = FlightRecordingSamplesTest.class.getName() + ".spinFor";
        assertTrue("the spinning method is on the thread's stacks", contains(thread, spinFrame));
        assertEquals("a sleeping JVM's spinner is not in the idle window", 0,
            trees.get("idle").root().children().stream().filter(n -> n.frame().equals("spinner-N")).count());
        long all = FlightRecordingSamples.read(file, "all").totalSamples();
        assertTrue("reading without windows takes every sample: " + all,
            all >= spin.totalSamples() + trees.get("idle").totalSamples());
    }

    private static boolean contains(CallTree.Node node, String frame) {
        if (node.frame().equals(frame)) {
            return true;
        }
        return node.children().stream().anyMatch(child -> contains(child, frame));
    }

    // JFR fails to walk some stacks of a bare arithmetic loop; a call with allocations samples well.
    private static long work(long x) {
        StringBuilder b = new StringBuilder().append(x);
        return b.length() + java.util.Objects.hash(x, b);
    }

    // Spins until the thread has had the given CPU time, not wall time: on a loaded machine a thread that
    // spun 500 ms of wall time may have run a few ms of it, and JFR samples only threads that run.
    private static void spinFor(long cpuMillis) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuEnd = threads.getCurrentThreadCpuTime() + cpuMillis * 1_000_000;
        long wallEnd = System.nanoTime() + 60_000_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < cpuEnd && System.nanoTime() < wallEnd) {
            for (int i = 0; i < 1_000; i++) {
                x += work(x);
            }
        }
        sink = x;
    }
}
