package io.millrace.mirror;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the mirror has copied, per topic: records and bytes read from the live clusters and
 * acknowledged by the offline one, and commits. Thread-safe; read by tests, the command's log and JMX.
 */
public final class MirrorCounters {

    private final Map<String, LongAdder[]> byTopic = new ConcurrentHashMap<>();
    private final LongAdder commits = new LongAdder();
    private final LongAdder schemasCopied = new LongAdder();
    private final List<LostRange> lost = new CopyOnWriteArrayList<>();

    /** Offsets of a live partition deleted before they were mirrored: {@code [from, to)}. */
    public record LostRange(String cluster, String topic, int partition, long from, long to) {
        public long count() {
            return to - from;
        }
    }

    void consumed(String topic, int bytes) {
        LongAdder[] counters = counters(topic);
        counters[0].increment();
        counters[1].add(bytes);
    }

    void produced(String topic, int bytes) {
        LongAdder[] counters = counters(topic);
        counters[2].increment();
        counters[3].add(bytes);
    }

    void committed() {
        commits.increment();
    }

    void lost(LostRange range) {
        lost.add(range);
    }

    /** Every lost range seen by this process, in order. */
    public List<LostRange> lostRanges() {
        return List.copyOf(lost);
    }

    /** Records lost, all ranges. */
    public long lostRecords() {
        return lost.stream().mapToLong(LostRange::count).sum();
    }

    void schemaCopied() {
        schemasCopied.increment();
    }

    /** Schema ids copied into the offline registry by this process. */
    public long schemasCopied() {
        return schemasCopied.sum();
    }

    private LongAdder[] counters(String topic) {
        return byTopic.computeIfAbsent(topic, t -> new LongAdder[] {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()});
    }

    /** Records read from the live clusters, all topics. */
    public long recordsIn() {
        return byTopic.values().stream().mapToLong(c -> c[0].sum()).sum();
    }

    /** Records the offline cluster acknowledged, all topics. */
    public long recordsOut() {
        return byTopic.values().stream().mapToLong(c -> c[2].sum()).sum();
    }

    public long recordsOut(String topic) {
        LongAdder[] counters = byTopic.get(topic);
        return counters == null ? 0 : counters[2].sum();
    }

    public long commits() {
        return commits.sum();
    }
}
