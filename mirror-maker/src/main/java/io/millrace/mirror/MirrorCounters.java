package io.millrace.mirror;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the mirror has copied, per topic: records and bytes read from the live clusters and
 * acknowledged by the offline one, and commits. Thread-safe; read by tests, the command's log and JMX.
 */
public final class MirrorCounters {

    private final Map<String, LongAdder[]> byTopic = new ConcurrentHashMap<>();
    private final LongAdder commits = new LongAdder();
    private final LongAdder schemasCopied = new LongAdder();

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
