package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
        assertTrue(Files.readString(flame).startsWith("<?xml"));
        assertTrue(Files.readString(flame).contains(ScenarioProfilesTest.class.getName() + ".burn"));
        String top = Files.readString(flames.resolve("top-frames.md"));
        assertTrue(top, top.contains("## 1. producer, batch 50, kafka-client/millrace-broker: kafka client (this JVM)"));
        assertTrue("the spinning frame leads: " + top, top.contains("| `" + ScenarioProfilesTest.class.getName() + ".burn` |"));
        assertTrue("a broker without a recording has no flame graph",
            Files.notExists(out.resolve("flames").resolve("1-producer-batch-50--kafka-client-millrace-broker--broker.svg")));
    }

    @Test
    public void fileNamesAreSlugsOfScenarioAndCell() {
        assertEquals("3-end-to-end-at-10-000-msg-s--millrace-client-kafka-broker",
            ScenarioProfiles.fileName(ScenarioProfiles.key(BrokerComparison.E2E_FIXED, Cell.MILLRACE_ON_KAFKA)));
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
