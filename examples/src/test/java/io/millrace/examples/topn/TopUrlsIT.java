package io.millrace.examples.topn;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.examples.events.PageViewEvent;
import io.millrace.examples.generator.EventGenerator;
import io.millrace.examples.generator.EventTopic;
import io.millrace.examples.generator.GenerationSummary;
import io.millrace.examples.generator.GeneratorOptions;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The rolling top URLs against two brokers and a registry, while the event generator sends page views into four
 * partitions: three counting instances and the total ranker publish, for every window that closed, exactly the
 * ranking a brute-force count of the same events gives, window after window with none skipped.
 */
public class TopUrlsIT {

    private static final int PARTITIONS = 4;
    private static final Duration WINDOW = Duration.ofMinutes(2);
    private static final Duration SLIDE = Duration.ofSeconds(10);
    private static final Duration LATENESS = Duration.ofMinutes(1);
    private static final int TOP_N = 5;

    private static LocalCluster cluster;
    private static SchemaRegistryServer registry;

    /** A page view as the brute force counts it. */
    private record View(int partition, String url, long timeMs) {
    }

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start(2, Map.of());
        cluster.createTopic("page-views", PARTITIONS);
        registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect());
    }

    @AfterClass
    public static void stop() {
        if (registry != null) {
            registry.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test(timeout = 180_000)
    public void everyClosedWindowsPublishedRankingIsTheBruteForceTopN() throws Exception {
        TopUrlsOptions options = TopUrlsOptions.builder(cluster.bootstrapServers(), cluster.zookeeperConnect(),
            registry.urls().get(0)).window(WINDOW).slide(SLIDE).lateness(LATENESS).topN(TOP_N).instances(3)
            .fromBeginning(true).build();
        Queue<UrlRanking> heard = new ConcurrentLinkedQueue<>();
        long lastClosed;
        List<View> views;
        try (TopUrls top = TopUrls.start(options, heard::add)) {
            generatePageViews();
            views = readPageViews();
            lastClosed = lastClosedWindowEnd(views);
            List<Long> allRead = List.of((long) views.size(), (long) views.size(), (long) views.size());
            long deadline = System.currentTimeMillis() + 60_000;
            while ((heard.stream().noneMatch(r -> r.windowEndMs() == lastClosed) || !top.viewsRead().equals(allRead))
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertEquals("every instance reads every view", allRead, top.viewsRead());
            assertEquals("views arriving after their window was ranked", 0, top.lateViews());
        }
        List<UrlRanking> published = readTotals();
        assertEquals(List.copyOf(heard), published);
        long firstEnd = Math.floorDiv(views.stream().mapToLong(View::timeMs).min().orElseThrow(), SLIDE.toMillis())
            * SLIDE.toMillis() + SLIDE.toMillis();
        List<Long> expectedEnds = new ArrayList<>();
        for (long end = firstEnd; end <= lastClosed; end += SLIDE.toMillis()) {
            expectedEnds.add(end);
        }
        assertEquals(expectedEnds, published.stream().map(UrlRanking::windowEndMs).toList());
        assertTrue("windows: " + expectedEnds.size(), expectedEnds.size() > 40);
        for (UrlRanking total : published) {
            assertEquals(bruteForce(views, total.windowEndMs()), total);
        }
    }

    /** 4,000 page views at 500 a second whose times sweep ten minutes: 75 s of event time per second sent. */
    private static void generatePageViews() throws InterruptedException {
        GenerationSummary summary = EventGenerator.run(GeneratorOptions.builder(cluster.bootstrapServers(),
            registry.urls().get(0)).topics(List.of(EventTopic.PAGE_VIEWS)).events(4_000).ratePerSecond(500)
            .timeSpread(Duration.ofMinutes(10)).seed(11L).audit(false).build(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, summary.exitStatus());
    }

    private static List<View> readPageViews() {
        Map<String, Object> config = Map.of("bootstrap.servers", cluster.bootstrapServers(),
            AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.urls().get(0),
            AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG, true);
        AvroDeserializer<PageViewEvent> avro = new AvroDeserializer<>();
        avro.configure(config, false);
        List<View> views = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(config))) {
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition("page-views", p);
                int partition = p;
                reader.read(tp, 0, reader.latestOffset(tp), new StringDeserializer(), avro).forEachRemaining(record ->
                    views.add(new View(partition, record.value().getUrl(), record.value().getHeader().getTime())));
            }
        }
        return views;
    }

    /** The end of the last window the watermark closes: the slowest partition's latest view less the lateness. */
    private static long lastClosedWindowEnd(List<View> views) {
        Map<Integer, Long> latest = new HashMap<>();
        views.forEach(view -> latest.merge(view.partition(), view.timeMs(), Math::max));
        assertEquals(PARTITIONS, latest.size());
        long least = latest.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        return Math.floorDiv(least - LATENESS.toMillis(), SLIDE.toMillis()) * SLIDE.toMillis();
    }

    private static List<UrlRanking> readTotals() {
        List<UrlRanking> totals = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers())))) {
            TopicPartition tp = new TopicPartition("top-urls", 0);
            reader.read(tp, 0, reader.latestOffset(tp), new StringDeserializer(), new StringDeserializer())
                .forEachRemaining(record -> totals.add(RankingText.decode(record.value())));
        }
        return totals;
    }

    /** Counts every view in the window and sorts by count, most first, ties by URL: the top N by brute force. */
    private static UrlRanking bruteForce(List<View> views, long windowEnd) {
        Map<String, Long> counts = new HashMap<>();
        for (View view : views) {
            if (view.timeMs() >= windowEnd - WINDOW.toMillis() && view.timeMs() < windowEnd) {
                counts.merge(view.url(), 1L, Long::sum);
            }
        }
        List<UrlCount> all = new ArrayList<>();
        counts.forEach((url, count) -> all.add(new UrlCount(url, count)));
        all.sort((x, y) -> x.count() != y.count() ? Long.compare(y.count(), x.count()) : x.url().compareTo(y.url()));
        return new UrlRanking(windowEnd, all.subList(0, Math.min(TOP_N, all.size())));
    }
}
