package io.millrace.examples.generator;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The command line: what each option sets, the defaults, and every mistake an exit status 2 saying what is wrong. */
public class GeneratorCommandLineTest {

    private static final String[] REQUIRED = {"--bootstrap-server", "127.0.0.1:9092", "--schema-registry", "http://127.0.0.1:8081"};

    private static String[] with(String... more) {
        String[] args = new String[REQUIRED.length + more.length];
        System.arraycopy(REQUIRED, 0, args, 0, REQUIRED.length);
        System.arraycopy(more, 0, args, REQUIRED.length, more.length);
        return args;
    }

    @Test
    public void theDefaultsAreTenThousandEventsOfEveryTopicFromThreeAuditedHostsAtTheTimeTheyAreSent() {
        GeneratorOptions options = GeneratorCommandLine.parse(REQUIRED);
        assertEquals("127.0.0.1:9092", options.bootstrapServers());
        assertEquals("http://127.0.0.1:8081", options.schemaRegistryUrl());
        assertEquals(List.of(EventTopic.values()), options.topics());
        assertEquals(RunLength.ofEvents(10_000), options.length());
        assertEquals(0, options.ratePerSecond(), 0);
        assertEquals(Duration.ZERO, options.timeSpread());
        assertEquals(3, options.hosts());
        assertNull(options.seed());
        assertTrue(options.audit());
        assertEquals("dc1", options.cluster());
        assertEquals("event-generator", options.application());
        assertEquals(Duration.ofSeconds(2), options.progressInterval());
    }

    @Test
    public void everyOptionSetsWhatItSays() {
        GeneratorOptions options = GeneratorCommandLine.parse(with("--topics", "searches,page-views", "--rate", "500/s",
            "--duration", "10m", "--time-spread", "PT3H", "--hosts", "5", "--seed", "42", "--cluster", "dc2",
            "--application", "smoke-test", "--no-audit", "--producer-property", "linger.ms=20",
            "--producer-property", "audit.window.ms=60000"));
        assertEquals(List.of(EventTopic.SEARCHES, EventTopic.PAGE_VIEWS), options.topics());
        assertEquals(500, options.ratePerSecond(), 0);
        assertEquals(RunLength.ofDuration(Duration.ofMinutes(10)), options.length());
        assertEquals(Duration.ofHours(3), options.timeSpread());
        assertEquals(5, options.hosts());
        assertEquals(Long.valueOf(42), options.seed());
        assertEquals("dc2", options.cluster());
        assertEquals("smoke-test", options.application());
        assertTrue(!options.audit());
        assertEquals(Map.of("linger.ms", "20", "audit.window.ms", "60000"), options.producerProperties());
    }

    @Test
    public void durationsTakeAUnitOrIsoForm() {
        assertEquals(Duration.ofSeconds(90), Durations.parse("90s"));
        assertEquals(Duration.ofMinutes(10), Durations.parse("10m"));
        assertEquals(Duration.ofHours(3), Durations.parse("3h"));
        assertEquals(Duration.ofDays(1), Durations.parse("1d"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofMinutes(90), Durations.parse("PT1H30M"));
        assertEquals(Duration.ZERO, Durations.parse("0"));
        assertEquals(RunLength.ofEvents(500), GeneratorCommandLine.parse(with("--events", "500")).length());
    }

    @Test
    public void mistakesAreUsageErrorsThatSayWhatIsWrong() {
        assertUsageError("--bootstrap-server is required", "--schema-registry", "http://127.0.0.1:8081");
        assertUsageError("--schema-registry is required", "--bootstrap-server", "127.0.0.1:9092");
        assertUsageError("Unknown topic 'clicks': the generator sends page-views, searches, service-calls",
            with("--topics", "page-views,clicks"));
        assertUsageError("Give --events or --duration, not both", with("--events", "10", "--duration", "1m"));
        assertUsageError("Not a duration: '3 hours'", with("--time-spread", "3 hours"));
        assertUsageError("--rate takes a positive number of events per second, not '-5'", with("--rate", "-5"));
        assertUsageError("--hosts must be a positive number", with("--hosts", "0"));
        assertUsageError("--events takes a whole number, not 'many'", with("--events", "many"));
        assertUsageError("Unknown option --speed", with("--speed", "fast"));
        assertUsageError("--seed needs a value", with("--seed"));
        assertUsageError("--producer-property takes key=value, not 'linger.ms'", with("--producer-property", "linger.ms"));
    }

    @Test
    public void helpPrintsTheUsageAndSucceeds() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = EventGeneratorMain.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false);
        assertEquals(0, status);
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: bin/millrace event-generator"));
    }

    private static void assertUsageError(String message, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EventGeneratorMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(EventGeneratorMain.USAGE_ERROR, status);
        String printed = err.toString(StandardCharsets.UTF_8);
        assertTrue(printed, printed.startsWith("millrace event-generator: " + message));
        assertTrue(printed, printed.contains("Usage: bin/millrace event-generator"));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
