package io.millrace.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.examples.QuickstartDemo.Event;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.RecordMetadata;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The demo's producing side: page views (a JSON value keyed by user id, with a content-type header)
 * sent by a {@link MillraceProducer}, one producer per compression codec. No record names a
 * partition, so the producer's default partitioner places each by {@code murmur2(key) % partitions},
 * as Kafka's producer does: a user's views all land in one partition, in order.
 */
final class PageViewProducer {

    static final String CONTENT_TYPE = "application/json";
    private static final Header CONTENT_TYPE_HEADER = new Header("content-type", CONTENT_TYPE.getBytes(UTF_8));
    private static final String[] PAGES = {"/", "/pricing", "/docs/quickstart", "/blog/millrace-0.1", "/signup"};
    /** User ids whose murmur2 hashes cover all three partitions. */
    private static final String[] USERS = {"alice", "bob", "carol", "dave", "erin", "frank", "grace"};
    /** Bounds every wait on the broker, so that a broken broker fails the demo instead of hanging it. */
    private static final int TIMEOUT_MS = 10_000;

    private final String bootstrapServers;
    private final PrintStream out;

    PageViewProducer(String bootstrapServers, PrintStream out) {
        this.bootstrapServers = bootstrapServers;
        this.out = out;
    }

    /** Produces {@code perCodec} page views with each codec; returns them with their offsets. */
    List<Event> produceWithEveryCodec(int perCodec) throws InterruptedException {
        List<Event> produced = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (CompressionType codec : CompressionType.values()) {
            List<ProducerRecord<String, String>> views = new ArrayList<>();
            for (int i = 0; i < perCodec; i++) {
                views.add(pageView(now, produced.size() + i));
            }
            produced.addAll(produce(codec, views));
        }
        return produced;
    }

    /** The n-th page view: a user id key, a JSON value, a timestamp of its own. */
    private static ProducerRecord<String, String> pageView(long now, int n) {
        String user = USERS[n * 3 % USERS.length];
        long timestamp = now + n;
        String json = String.format("{\"user\":\"%s\",\"page\":\"%s\",\"ts\":%d}", user, PAGES[n % PAGES.length], timestamp);
        return new ProducerRecord<>(QuickstartDemo.TOPIC, null, timestamp, user, json, List.of(CONTENT_TYPE_HEADER));
    }

    /**
     * Sends every view before waiting for any, so that a partition's views share one batch, then
     * prints each partition's offsets from the acknowledgements.
     */
    private List<Event> produce(CompressionType codec, List<ProducerRecord<String, String>> views)
            throws InterruptedException {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        try (Producer<String, String> producer =
                 new MillraceProducer<>(settings(codec), new StringSerializer(), new StringSerializer())) {
            views.forEach(view -> acks.add(producer.send(view)));
            producer.flush();
        }
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < views.size(); i++) {
            ProducerRecord<String, String> view = views.get(i);
            RecordMetadata where = acknowledgement(acks.get(i), view);
            events.add(new Event(where.partition(), where.offset(), where.timestamp(), view.key(), view.value(),
                CONTENT_TYPE));
        }
        out.printf("Produced %d events as %-6s batches:%s%n", events.size(), codec.configName, placement(events));
        return events;
    }

    private Map<String, Object> settings(CompressionType codec) {
        return Map.of(
            "bootstrap.servers", bootstrapServers,
            "client.id", "quickstart-" + codec.configName,
            "acks", "all",
            "compression.type", codec.configName,
            "max.block.ms", TIMEOUT_MS,
            "delivery.timeout.ms", TIMEOUT_MS);
    }

    private static RecordMetadata acknowledgement(Future<RecordMetadata> ack, ProducerRecord<String, String> view)
            throws InterruptedException {
        try {
            return ack.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Producing " + view.value() + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("No acknowledgement for " + view.value() + " within " + TIMEOUT_MS + " ms", e);
        }
    }

    /** "  p0@3-4  p2@1": each partition's offsets, the way the demo prints them. */
    private static String placement(List<Event> events) {
        Map<Integer, long[]> ranges = new TreeMap<>();
        for (Event e : events) {
            ranges.merge(e.partition(), new long[] {e.offset(), e.offset()},
                (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
        StringBuilder line = new StringBuilder();
        ranges.forEach((p, range) -> line.append(range[0] == range[1] ? String.format("  p%d@%d", p, range[0])
            : String.format("  p%d@%d-%d", p, range[0], range[1])));
        return line.toString();
    }
}
