package io.millrace.examples.generator;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what a run sent, and what came back acknowledged or failed, per topic, per host and per hour of event
 * time. Sends are counted on the sending thread, answers on the producers' I/O threads, progress is read on
 * another: every count is a {@link LongAdder}, so none of them waits for another. Thread-safe.
 */
final class DeliveryTally {

    private static final long HOUR_MS = 3_600_000L;

    /** sent, acknowledged and failed of one topic or host. */
    private static final class Counters {
        final LongAdder sent = new LongAdder();
        final LongAdder acknowledged = new LongAdder();
        final LongAdder failed = new LongAdder();

        GenerationSummary.Counts snapshot() {
            return new GenerationSummary.Counts(sent.sum(), acknowledged.sum(), failed.sum());
        }
    }

    private final Map<String, Counters> byTopic = new HashMap<>();
    private final Map<String, Counters> byHost = new HashMap<>();
    private final Map<String, ConcurrentHashMap<Long, LongAdder>> acknowledgedByHour = new HashMap<>();
    private final Counters total = new Counters();
    private final LongAccumulator earliestEventMs = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator latestEventMs = new LongAccumulator(Math::max, Long.MIN_VALUE);
    private final AtomicReference<String> firstError = new AtomicReference<>();

    /** A tally of these topics and hosts; the maps are filled here, and only read afterwards. */
    DeliveryTally(List<EventTopic> topics, List<String> hosts) {
        for (EventTopic topic : topics) {
            byTopic.put(topic.topic(), new Counters());
            acknowledgedByHour.put(topic.topic(), new ConcurrentHashMap<>());
        }
        hosts.forEach(host -> byHost.put(host, new Counters()));
    }

    void sent(String topic, String host, long eventTimeMs) {
        byTopic.get(topic).sent.increment();
        byHost.get(host).sent.increment();
        total.sent.increment();
        earliestEventMs.accumulate(eventTimeMs);
        latestEventMs.accumulate(eventTimeMs);
    }

    void acknowledged(String topic, String host, long eventTimeMs) {
        byTopic.get(topic).acknowledged.increment();
        byHost.get(host).acknowledged.increment();
        total.acknowledged.increment();
        long hour = Math.floorDiv(eventTimeMs, HOUR_MS) * HOUR_MS;
        acknowledgedByHour.get(topic).computeIfAbsent(hour, h -> new LongAdder()).increment();
    }

    void failed(String topic, String host, Exception error) {
        byTopic.get(topic).failed.increment();
        byHost.get(host).failed.increment();
        total.failed.increment();
        firstError.compareAndSet(null, error.toString());
    }

    /** The counts of every topic together, for progress lines. */
    GenerationSummary.Counts total() {
        return total.snapshot();
    }

    GenerationSummary summary(long startMs, long elapsedMs) {
        Map<String, SortedMap<Long, Long>> hours = new HashMap<>();
        acknowledgedByHour.forEach((topic, counts) -> {
            TreeMap<Long, Long> sorted = new TreeMap<>();
            counts.forEach((hour, count) -> sorted.put(hour, count.sum()));
            hours.put(topic, Collections.unmodifiableSortedMap(sorted));
        });
        return new GenerationSummary(snapshots(byTopic), snapshots(byHost), hours, startMs, elapsedMs,
            earliestEventMs.get(), latestEventMs.get(), firstError.get());
    }

    private static Map<String, GenerationSummary.Counts> snapshots(Map<String, Counters> counters) {
        Map<String, GenerationSummary.Counts> snapshots = new HashMap<>();
        counters.forEach((name, counts) -> snapshots.put(name, counts.snapshot()));
        return snapshots;
    }
}
