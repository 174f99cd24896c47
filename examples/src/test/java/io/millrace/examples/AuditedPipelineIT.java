package io.millrace.examples;

import static io.millrace.examples.TieredPipeline.deleteAllButActiveSegment;
import static io.millrace.examples.TieredPipeline.timestamps;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.tools.AuditReportMain;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.examples.TieredPipeline.Sent;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.mirror.MirrorMessageHandler;
import io.millrace.producer.ProducerRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The audit across the whole pipeline (producers, live cluster, mirror, offline cluster, loader), with
 * records removed at each step, each kind in a topic of its own so that what each step removed is known
 * exactly:
 * <ul>
 *   <li>{@value #LOST_LIVE}: retention in dc1 deletes records the mirror has not read yet: missing at tiers
 *       live, offline and hadoop in those records' windows, and a lost range at tier live;</li>
 *   <li>{@value #DROPPED}: a message handler in the mirror drops every seventh record: missing at tiers
 *       offline and hadoop, not at live;</li>
 *   <li>{@value #LOST_OFFLINE}: retention in the offline cluster deletes records the mirror wrote and the
 *       loader has not read yet: missing at tier hadoop only, and a lost range at tier hadoop;</li>
 *   <li>{@value #CLEAN}: nothing removed.</li>
 * </ul>
 * The report command, run in this JVM, must mark exactly those windows and tiers incomplete with exactly
 * those counts missing, every other window complete, and exit 1; restricted to the clean topic it shows
 * every window complete, 100%, and exits 0.
 *
 * <p>The retention gaps need the mirror and the loader to have read the topic before (a reader that starts at the
 * earliest offset sees no gap), so each runs twice: once after the first records, once after the rest.
 */
public class AuditedPipelineIT {

    static final String CLEAN = "clean";
    static final String LOST_LIVE = "lost-live";
    static final String DROPPED = "dropped-mirror";
    static final String LOST_OFFLINE = "lost-offline";
    private static final String[] TOPICS = {CLEAN, LOST_LIVE, DROPPED, LOST_OFFLINE};
    /** The events and dc1's audit topic, which carries the front-ends' counts to the offline report. */
    private static final Set<String> MIRRORED = Set.of(CLEAN, LOST_LIVE, DROPPED, LOST_OFFLINE, "_audit");
    private static final String WHITELIST = String.join("|", MIRRORED);
    private static final String LIVE = "live/" + TieredPipeline.LIVE_CLUSTER;
    private static final String OFFLINE = "offline/" + TieredPipeline.LIVE_CLUSTER;
    private static final String HADOOP = "hadoop/offline";

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    /** Produced events per "topic w<window>". */
    private final Map<String, Long> produced = new TreeMap<>();
    /** Events a tier must miss, per "topic w<window> tier/cluster". */
    private final Map<String, Long> missing = new TreeMap<>();
    /** The lost ranges the report must list: the mirror's in dc1, and the loader's offline. */
    private String lostLive;
    private String lostHadoop;
    /** The handler's args: the keys of {@value #DROPPED} it drops, the same in both mirror runs. */
    private String droppedKeys = "";

    /** Drops the records whose key is one of its comma-separated args. */
    public static final class DropKeys implements MirrorMessageHandler {
        private Set<String> dropped = Set.of();

        @Override
        public void configure(String args) {
            dropped = Set.of(args.split(","));
        }

        @Override
        public List<ProducerRecord<byte[], byte[]>> handle(ConsumerRecord<byte[], byte[]> record,
                                                           ProducerRecord<byte[], byte[]> copy) {
            String key = record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8);
            return dropped.contains(key) ? List.of() : List.of(copy);
        }
    }

    @Test
    public void theReportNamesExactlyWhatEachTierLostWindowByWindowAndACleanTopicIsComplete() throws Exception {
        Path dir = temp.getRoot().toPath();
        try (TieredPipeline pipeline = TieredPipeline.start(dir.resolve("pipeline"))) {
            pipeline.live().createTopic(CLEAN, 2);
            pipeline.live().createTopic(LOST_LIVE, 1, Map.of("segment.bytes", "20000"));
            pipeline.live().createTopic(DROPPED, 1);
            pipeline.live().createTopic(LOST_OFFLINE, 1);
            pipeline.offline().createTopic(LOST_OFFLINE, 1, Map.of("segment.bytes", "20000"));

            firstRecordsThroughTheMirrorAndTheLoader(pipeline);
            restThroughTheMirrorAndTheLoader(pipeline);

            JsonNode report = report(pipeline, dir.resolve("all.json"), 1);
            assertEquals("every window of every topic at every tier, the losses exactly where they were made",
                expectedRows(), rows(pipeline, report));
            assertLostRanges(report);

            ByteArrayOutputStream table = new ByteArrayOutputStream();
            JsonNode clean = report(pipeline, dir.resolve("clean.json"), 0, table, "--topics", CLEAN);
            assertEquals("COMPLETE", clean.get("status").asText());
            assertEquals("three windows at three tiers", 9, clean.get("rows").size());
            String lines = table.toString(StandardCharsets.UTF_8);
            assertEquals(lines, 9, lines.lines().filter(l -> l.contains("100.00%") && l.endsWith("COMPLETE")).count());
        }
    }

    /**
     * The first records of every topic, mirrored (the handler dropping every seventh of {@value #DROPPED}) and
     * loaded: so the mirror's group and the loader have offsets to find the later gaps from.
     */
    private void firstRecordsThroughTheMirrorAndTheLoader(TieredPipeline pipeline) throws Exception {
        List<Sent> sent = new ArrayList<>();
        try (AuditPublisher frontEnds = pipeline.frontEnds()) {
            sent.addAll(pipeline.produce(frontEnds, CLEAN, 2, 0, 300, 0, 3));
            sent.addAll(pipeline.produce(frontEnds, LOST_LIVE, 1, 0, 100, 0, 2));
            sent.addAll(pipeline.produce(frontEnds, DROPPED, 1, 0, 200, 0, 3));
            sent.addAll(pipeline.produce(frontEnds, LOST_OFFLINE, 1, 0, 100, 0, 2));
        }
        expectProduced(pipeline, sent);
        List<Sent> dropped = sent.stream().filter(e -> e.topic().equals(DROPPED) && sequence(e) % 7 == 3).toList();
        for (Sent event : dropped) {
            expectMissing(pipeline, event.topic(), event.timeMs(), OFFLINE, HADOOP);
        }
        assertEquals("every seventh of 200", 29, dropped.size());
        droppedKeys = String.join(",", dropped.stream().map(Sent::key).toList());
        pipeline.mirrorEverything(pipeline.mirror(WHITELIST, DropKeys.class, droppedKeys), MIRRORED);
        LoadSummary first = pipeline.load(TOPICS);
        assertEquals("the first load: every record the mirror wrote", 300 + 100 + (200 - 29) + 100, first.records());
    }

    /**
     * The rest of {@value #LOST_LIVE} and {@value #LOST_OFFLINE}; retention in dc1 deletes most of the first
     * before the mirror runs again, retention offline most of the second before the loader runs again.
     */
    private void restThroughTheMirrorAndTheLoader(TieredPipeline pipeline) throws Exception {
        List<Sent> sent = new ArrayList<>();
        try (AuditPublisher frontEnds = pipeline.frontEnds()) {
            sent.addAll(pipeline.produce(frontEnds, LOST_LIVE, 1, 100, 300, 2, 3));
            sent.addAll(pipeline.produce(frontEnds, LOST_OFFLINE, 1, 100, 300, 2, 3));
        }
        expectProduced(pipeline, sent);

        Map<Long, Long> liveTimes = timestamps(pipeline.live(), LOST_LIVE);
        long liveEarliest = deleteAllButActiveSegment(pipeline.live(), LOST_LIVE);
        assertTrue("the gap starts where the mirror stopped and ends before the last record: " + liveEarliest,
            liveEarliest > 100 && liveEarliest < 400);
        expectDeleted(pipeline, LOST_LIVE, liveTimes, 100, liveEarliest, LIVE, OFFLINE, HADOOP);
        pipeline.mirrorEverything(pipeline.mirror(WHITELIST, DropKeys.class, droppedKeys), MIRRORED);
        lostLive = lost(LIVE, LOST_LIVE, 100, liveEarliest - 1);

        Map<Long, Long> offlineTimes = timestamps(pipeline.offline(), LOST_OFFLINE);
        assertEquals("the mirror wrote every record of " + LOST_OFFLINE, 400, offlineTimes.size());
        long offlineEarliest = deleteAllButActiveSegment(pipeline.offline(), LOST_OFFLINE);
        assertTrue("the gap starts where the loader stopped: " + offlineEarliest, offlineEarliest > 100 && offlineEarliest < 400);
        expectDeleted(pipeline, LOST_OFFLINE, offlineTimes, 100, offlineEarliest, HADOOP);
        LoadSummary second = pipeline.load(TOPICS);
        assertEquals("the loader saw the gap", offlineEarliest - 100, second.lostMessages());
        assertEquals((400 - liveEarliest) + (400 - offlineEarliest), second.records());
        lostHadoop = lost(HADOOP, LOST_OFFLINE, 100, offlineEarliest - 1);
    }

    private static long sequence(Sent event) {
        return Long.parseLong(event.key().substring(event.key().lastIndexOf('/') + 1));
    }

    private void expectProduced(TieredPipeline pipeline, List<Sent> sent) {
        sent.forEach(e -> produced.merge(e.topic() + " w" + pipeline.windowOf(e.timeMs()), 1L, Long::sum));
    }

    private void expectMissing(TieredPipeline pipeline, String topic, long timeMs, String... tiers) {
        for (String tier : tiers) {
            missing.merge(topic + " w" + pipeline.windowOf(timeMs) + " " + tier, 1L, Long::sum);
        }
    }

    /** Records {@code from} to {@code to - 1} of {@code topic}, whose times {@code times} holds, deleted: missing at {@code tiers}. */
    private void expectDeleted(TieredPipeline pipeline, String topic, Map<Long, Long> times, long from, long to,
                               String... tiers) {
        for (long offset = from; offset < to; offset++) {
            expectMissing(pipeline, topic, times.get(offset), tiers);
        }
    }

    /** Every row the report must hold: each topic's windows with traffic, at each downstream tier. */
    private Map<String, String> expectedRows() {
        Map<String, String> rows = new TreeMap<>();
        produced.forEach((topicWindow, count) -> {
            for (String tier : List.of(LIVE, OFFLINE, HADOOP)) {
                long lost = missing.getOrDefault(topicWindow + " " + tier, 0L);
                rows.put(topicWindow + " " + tier, row(count, count - lost, lost, lost == 0 ? "COMPLETE" : "INCOMPLETE"));
            }
        });
        assertTrue("losses in several windows of each kind: " + missing, missing.size() >= 3 * 2 + 2);
        return rows;
    }

    private static String row(long produced, long counted, long missing, String status) {
        return produced + " produced, " + counted + " counted, " + missing + " missing, " + status;
    }

    /** The report's rows in the same form, windows numbered as the pipeline numbers them. */
    private static Map<String, String> rows(TieredPipeline pipeline, JsonNode report) {
        Map<String, String> rows = new TreeMap<>();
        for (JsonNode r : report.get("rows")) {
            long start = r.get("windowStart").asLong();
            int window = pipeline.windowOf(start);
            assertEquals("windows aligned with the pipeline's", pipeline.window(window), start);
            rows.put(r.get("topic").asText() + " w" + window + " " + r.get("tier").asText() + "/" + r.get("cluster").asText(),
                row(r.get("produced").asLong(), r.get("counted").asLong(), r.get("missing").asLong(), r.get("status").asText()));
        }
        return rows;
    }

    private static String lost(String tierCluster, String topic, long first, long last) {
        return tierCluster + " " + topic + "-0 " + first + ".." + last + " (" + (last - first + 1) + ")";
    }

    /** The mirror's lost range in dc1 and the loader's offline, each exactly, and no other. */
    private void assertLostRanges(JsonNode report) {
        List<String> ranges = new ArrayList<>();
        for (JsonNode l : report.get("lost")) {
            String range = lost(l.get("tier").asText() + "/" + l.get("cluster").asText(), l.get("topic").asText(),
                l.get("firstOffset").asLong(), l.get("lastOffset").asLong());
            assertEquals(range, l.get("lastOffset").asLong() - l.get("firstOffset").asLong() + 1, l.get("count").asLong());
            ranges.add(range);
        }
        assertEquals(new TreeSet<>(List.of(lostLive, lostHadoop)), new TreeSet<>(ranges));
        assertEquals("each once", 2, ranges.size());
    }

    private static JsonNode report(TieredPipeline pipeline, Path json, int status, String... more) throws Exception {
        return report(pipeline, json, status, new ByteArrayOutputStream(), more);
    }

    /** Runs the report command as bin/millrace audit-report would, windows judged as soon as they end. */
    private static JsonNode report(TieredPipeline pipeline, Path json, int status, ByteArrayOutputStream table,
                                   String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", pipeline.offline().bootstrapServers(),
            "--schema-registry", pipeline.offlineRegistryUrl(), "--grace", "0s", "--json", json.toString()));
        args.addAll(List.of(more));
        PrintStream out = new PrintStream(table, true, StandardCharsets.UTF_8);
        int exit = AuditReportMain.run(args.toArray(String[]::new), out, System.err, System.currentTimeMillis());
        System.out.print(table.toString(StandardCharsets.UTF_8));   // into the test's output file, for a failure's reader
        assertEquals(table.toString(StandardCharsets.UTF_8), status, exit);
        return new ObjectMapper().readTree(json.toFile());
    }
}
