package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.Test;

/** The command line of {@code example top-urls}: its defaults, its options, and the mistakes it refuses. */
public class TopUrlsCommandLineTest {

    private static final String[] REQUIRED = {"--bootstrap-server", "b:9092", "--zookeeper", "z:2181",
        "--schema-registry", "http://r:8081"};

    private static String[] with(String... more) {
        String[] args = new String[REQUIRED.length + more.length];
        System.arraycopy(REQUIRED, 0, args, 0, REQUIRED.length);
        System.arraycopy(more, 0, args, REQUIRED.length, more.length);
        return args;
    }

    @Test
    public void theDefaultsAreTheTopTenOfTheLastFiveMinutesEveryTenSecondsFromTheLatestPageViews() {
        TopUrlsOptions options = TopUrlsCommandLine.parse(REQUIRED);
        assertEquals("b:9092", options.bootstrapServers());
        assertEquals("z:2181", options.zookeeperConnect());
        assertEquals("http://r:8081", options.schemaRegistryUrl());
        assertEquals("page-views", options.topic());
        assertEquals(Duration.ofMinutes(5), options.window());
        assertEquals(Duration.ofSeconds(10), options.slide());
        assertEquals(Duration.ofSeconds(10), options.lateness());
        assertEquals(10, options.topN());
        assertEquals(2, options.instances());
        assertFalse(options.fromBeginning());
        assertEquals("top-urls-count-1", options.countingGroup(0));
        assertEquals("top-urls-total", options.totalGroup());
    }

    @Test
    public void everyOptionIsTaken() {
        TopUrlsOptions options = TopUrlsCommandLine.parse(with("--topic", "views", "--window", "1h", "--slide", "1m",
            "--lateness", "30s", "--top", "3", "--instances", "4", "--from-beginning", "--group", "ranks"));
        assertEquals("views", options.topic());
        assertEquals(Duration.ofHours(1), options.window());
        assertEquals(Duration.ofMinutes(1), options.slide());
        assertEquals(Duration.ofSeconds(30), options.lateness());
        assertEquals(3, options.topN());
        assertEquals(4, options.instances());
        assertTrue(options.fromBeginning());
        assertEquals("ranks-count-4", options.countingGroup(3));
    }

    @Test(expected = IllegalArgumentException.class)
    public void theZooKeeperIsRequired() {
        TopUrlsCommandLine.parse(new String[] {"--bootstrap-server", "b:9092", "--schema-registry", "http://r:8081"});
    }

    @Test(expected = IllegalArgumentException.class)
    public void aWindowMustBeAWholeNumberOfSlides() {
        TopUrlsCommandLine.parse(with("--window", "25s", "--slide", "10s"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void noInstancesIsRefused() {
        TopUrlsCommandLine.parse(with("--instances", "0"));
    }

    @Test
    public void aUsageErrorExitsTwoAndSaysWhatIsWrong() throws InterruptedException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TopUrlsMain.run(with("--top", "many"), new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8), new CountDownLatch(0));
        assertEquals(TopUrlsMain.USAGE_ERROR, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--top takes a positive whole number, not 'many'"));
    }
}
