package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class ScenarioProfilesTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private static volatile double sink;

    @Test
    public void eachMeasuredRunBecomesPartOfItsScenarioAndCellsFlameGraph() throws Exception {
        Path out = tmp.getRoot().toPath();
        ScenarioProfiles profiles = new ScenarioProfiles(out, true, false);
        profiles.start();
        for (int run = 0; run < 2; run++) {
            assertEquals("the work's result is passed on", Integer.valueOf(run),
                profiles.measure("1. producer, batch 50", Cell.KAFKA_ON_MILLRACE, spin(run)));
        }
        Path flames = profiles.render(Map.of(BrokerComparison.MILLRACE, out.resolve("logs").resolve("absent.jfr")));

        Path flame = out.resolve("flames").resolve("1-producer-batch-50--kafka-client-millrace-broker--client.svg");
        String svg = Files.readString(flame);
        assertTrue(svg.startsWith("<?xml"));
        // Most of the cell's samples are the measured work's. Inclusive, since which of burn's inlined
        // callees a sample's own time lands in is the JIT's choice, not the profile's.
        assertTrue("the spinning frame holds most samples: " + sharesOf(svg, ".burn"), maxShareOf(svg, ".burn") >= 50.0);
        String top = Files.readString(flames.resolve("top-frames.md"));
        assertTrue(top, top.contains("## 1. producer, batch 50, kafka-client/millrace-broker: kafka client (this JVM)"));
        assertTrue("the top frames are listed: " + top, top.contains("| ---: | --- |\n| "));
        assertTrue("a broker without a recording has no flame graph",
            Files.notExists(out.resolve("flames").resolve("1-producer-batch-50--kafka-client-millrace-broker--broker.svg")));
    }

    @Test
    public void fileNamesAreSlugsOfScenarioAndCell() {
        assertEquals("3-end-to-end-at-10-000-msg-s--millrace-client-kafka-broker",
            ScenarioProfiles.fileName(ScenarioProfiles.key(BrokerComparison.E2E_FIXED, Cell.MILLRACE_ON_KAFKA)));
    }

    /** The shares (in percent) that the flame graph's frames of this class's {@code method} hover titles give. */
    private static List<Double> sharesOf(String svg, String method) {
        Matcher m = Pattern.compile(Pattern.quote(ScenarioProfilesTest.class.getName() + method) + " \\([0-9,]+ samples, ([0-9.]+)%\\)")
            .matcher(svg);
        List<Double> shares = new ArrayList<>();
        while (m.find()) {
            shares.add(Double.parseDouble(m.group(1)));
        }
        return shares;
    }

    private static double maxShareOf(String svg, String method) {
        return sharesOf(svg, method).stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static java.util.concurrent.Callable<Integer> spin(int result) {
        return () -> {
            burn(300);
            return result;
        };
    }

    private static void burn(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        double x = 1;
        while (System.nanoTime() < end) {
            x += String.valueOf(x).length(); // a call and an allocation: JFR walks such stacks reliably
        }
        sink = x;
    }
}
