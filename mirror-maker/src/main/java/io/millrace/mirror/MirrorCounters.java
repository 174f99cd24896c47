package io.millrace.mirror;

import io.millrace.common.TopicPartition;
import io.millrace.common.metrics.RecentRate;
import io.millrace.common.utils.Time;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the mirror has copied, per live cluster and topic, and in all: records and bytes in and out,
 * lag, latency, commits, lost ranges, schemas copied. Thread-safe. Exported through JMX as MXBeans (open
 * types, readable by any JMX client) ({@link MirrorMetricsMBean}, {@link MirrorTopicMetricsMBean}) from
 * {@link #register()} to {@link #unregister()}.
 */
public final class MirrorCounters implements MirrorMetricsMBean {

    private static final Logger LOG = LoggerFactory.getLogger(MirrorCounters.class);
    static final String DOMAIN = "io.millrace";

    private final Map<String, TopicCounters> byTopic = new ConcurrentHashMap<>();
    private final LongAdder commits = new LongAdder();
    private final LongAdder schemasCopied = new LongAdder();
    private final List<LostRange> lost = new CopyOnWriteArrayList<>();
    private final List<ObjectName> registered = new CopyOnWriteArrayList<>();
    /** Per live cluster, the embedded consumers' lag of the partitions they own. */
    private final Map<String, List<Supplier<Map<TopicPartition, Long>>>> lagSources = new ConcurrentHashMap<>();
    private volatile boolean exported;

    /** Offsets of a live partition deleted before they were mirrored: {@code [from, to)}. */
    public record LostRange(String cluster, String topic, int partition, long from, long to) {
        public long count() {
            return to - from;
        }
    }

    /** One live cluster's topic. */
    public static final class TopicCounters implements MirrorTopicMetricsMBean {
        private final Supplier<Map<Integer, Long>> lag;
        private final RecentRate recordsIn = new RecentRate(Time.SYSTEM);
        private final RecentRate bytesIn = new RecentRate(Time.SYSTEM);
        private final RecentRate recordsOut = new RecentRate(Time.SYSTEM);
        private final RecentRate bytesOut = new RecentRate(Time.SYSTEM);
        private final LongAdder latencySum = new LongAdder();
        private final LongAccumulator latencyMax = new LongAccumulator(Math::max, 0);
        private final LongAdder duplicates = new LongAdder();

        TopicCounters(Supplier<Map<Integer, Long>> lag) {
            this.lag = lag;
        }

        void consumed(int bytes) {
            recordsIn.record(1);
            bytesIn.record(bytes);
        }

        /** A record the offline cluster already held, not written again: out, without a latency of its own. */
        void duplicated(int bytes) {
            duplicates.increment();
            recordsOut.record(1);
            bytesOut.record(bytes);
        }

        void produced(int bytes, long latencyMs) {
            recordsOut.record(1);
            bytesOut.record(bytes);
            latencySum.add(latencyMs);
            latencyMax.accumulate(latencyMs);
        }

        /** A whole batch copied: its records and their key and value bytes, consumed. */
        void consumed(int records, long bytes) {
            recordsIn.record(records);
            bytesIn.record(bytes);
        }

        /** A whole batch acknowledged: the sum of its records' latencies and the largest. */
        void produced(int records, long bytes, long latencySumMs, long latencyMaxMs) {
            recordsOut.record(records);
            bytesOut.record(bytes);
            latencySum.add(latencySumMs);
            latencyMax.accumulate(latencyMaxMs);
        }

        @Override
        public long getRecordsIn() {
            return recordsIn.total();
        }

        @Override
        public double getRecordsInPerSec() {
            return recordsIn.perSecond();
        }

        @Override
        public long getBytesIn() {
            return bytesIn.total();
        }

        @Override
        public double getBytesInPerSec() {
            return bytesIn.perSecond();
        }

        @Override
        public long getRecordsOut() {
            return recordsOut.total();
        }

        @Override
        public double getRecordsOutPerSec() {
            return recordsOut.perSecond();
        }

        @Override
        public long getBytesOut() {
            return bytesOut.total();
        }

        @Override
        public double getBytesOutPerSec() {
            return bytesOut.perSecond();
        }

        @Override
        public double getLatencyAvgMs() {
            long out = recordsOut.total() - duplicates.sum();
            return out <= 0 ? 0 : (double) latencySum.sum() / out;
        }

        @Override
        public long getLatencyMaxMs() {
            return latencyMax.get();
        }

        @Override
        public long getDuplicates() {
            return duplicates.sum();
        }

        @Override
        public Map<Integer, Long> getRecordsLag() {
            return lag.get();
        }

        @Override
        public long getRecordsLagMax() {
            return lag.get().values().stream().mapToLong(Long::longValue).max().orElse(-1);
        }
    }

    /** Where the lag of {@code cluster}'s partitions comes from: one embedded consumer's {@code lag()}. */
    void lagSource(String cluster, Supplier<Map<TopicPartition, Long>> source) {
        lagSources.computeIfAbsent(cluster, c -> new CopyOnWriteArrayList<>()).add(source);
    }

    /** The lag of each partition of {@code topic} in {@code cluster} that this process mirrors, by partition. */
    Map<Integer, Long> lag(String cluster, String topic) {
        Map<Integer, Long> lag = new TreeMap<>();
        for (Supplier<Map<TopicPartition, Long>> source : lagSources.getOrDefault(cluster, List.of())) {
            source.get().forEach((tp, records) -> {
                if (tp.topic().equals(topic)) {
                    lag.put(tp.partition(), records);
                }
            });
        }
        return lag;
    }

    /** The counters of {@code topic} from {@code cluster}, exported when the mirror's metrics are. */
    TopicCounters topic(String cluster, String topic) {
        String key = cluster + '\u0000' + topic;
        TopicCounters counters = byTopic.get(key);
        if (counters != null) {
            return counters;
        }
        TopicCounters created = new TopicCounters(() -> lag(cluster, topic));
        TopicCounters raced = byTopic.putIfAbsent(key, created);
        if (raced != null) {
            return raced;
        }
        if (exported) {
            export(created, MirrorTopicMetricsMBean.class, "type=mirror-topic-metrics,cluster=" + ObjectName.quote(cluster) + ",topic=" + ObjectName.quote(topic));
        }
        return created;
    }

    void committed() {
        commits.increment();
    }

    void lost(LostRange range) {
        lost.add(range);
    }

    void schemaCopied() {
        schemasCopied.increment();
    }

    /** Starts exporting through the platform MBean server (a clash, e.g. two mirrors in one JVM, is logged). */
    void register() {
        exported = true;
        export(this, MirrorMetricsMBean.class, "type=mirror-metrics");
    }

    void unregister() {
        exported = false;
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            } catch (JMException e) {
                LOG.debug("Could not unregister {}: {}", name, e.toString());
            }
        }
        registered.clear();
    }

    private <T> void export(T mbean, Class<T> type, String properties) {
        try {
            ObjectName name = new ObjectName(DOMAIN + ":" + properties);
            ManagementFactory.getPlatformMBeanServer().registerMBean(new StandardMBean(mbean, type, true), name);
            registered.add(name);
        } catch (JMException e) {
            LOG.warn("Cannot export mirror metrics as {}:{}: {}", DOMAIN, properties, e.toString());
        }
    }

    /** Every lost range seen by this process, in order. */
    public List<LostRange> lostRanges() {
        return List.copyOf(lost);
    }

    @Override
    public long getLostRecords() {
        return lost.stream().mapToLong(LostRange::count).sum();
    }

    /** Records lost, all ranges. */
    public long lostRecords() {
        return getLostRecords();
    }

    @Override
    public long getSchemasCopied() {
        return schemasCopied.sum();
    }

    public long schemasCopied() {
        return getSchemasCopied();
    }

    @Override
    public long getRecordsIn() {
        return byTopic.values().stream().mapToLong(TopicCounters::getRecordsIn).sum();
    }

    /** Records read from the live clusters, all topics. */
    public long recordsIn() {
        return getRecordsIn();
    }

    @Override
    public long getRecordsOut() {
        return byTopic.values().stream().mapToLong(TopicCounters::getRecordsOut).sum();
    }

    /** Records the offline cluster acknowledged, all topics. */
    public long recordsOut() {
        return getRecordsOut();
    }

    /** Records of {@code topic} the offline cluster acknowledged, from every live cluster. */
    public long recordsOut(String topic) {
        return byTopic.entrySet().stream().filter(e -> e.getKey().endsWith('\u0000' + topic))
            .mapToLong(e -> e.getValue().getRecordsOut()).sum();
    }

    @Override
    public long getDuplicates() {
        return byTopic.values().stream().mapToLong(TopicCounters::getDuplicates).sum();
    }

    /** Records copied again after a takeover that the offline cluster already held, all topics. */
    public long duplicates() {
        return getDuplicates();
    }

    @Override
    public long getCommits() {
        return commits.sum();
    }

    public long commits() {
        return getCommits();
    }
}
