package io.millrace.broker.server;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.broker.network.MetricGroup;
import io.millrace.broker.network.MetricsRegistry;
import io.millrace.broker.network.Timer;
import io.millrace.common.TopicPartition;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The metrics of the local logs, as Kafka's {@code kafka.log} ones:
 * <ul>
 *   <li>{@code io.millrace:type=log,broker=<id>,topic=<topic>,partition=<n>}, one per open log,
 *       registered when the log is loaded or created and removed when it is deleted:
 *       {@code size} (bytes in all segments), {@code log-start-offset}, {@code log-end-offset} and
 *       {@code num-log-segments}, each read from the log when asked;</li>
 *   <li>{@code io.millrace:type=log-flush-stats,broker=<id>}: {@code log-flush-total} (fsyncs of a
 *       log, whatever asked for them) and {@code log-flush-time-ms-avg}/{@code -max};</li>
 *   <li>{@code io.millrace:type=log-cleaner-metrics,broker=<id>}: what the log cleaner did to compacted
 *       partitions ({@code cleaned-logs-total}, {@code segments-rewritten-total},
 *       {@code records-removed-total}, {@code bytes-removed-total}) and {@code clean-time-ms-avg}/{@code -max}
 *       per partition cleaned.</li>
 * </ul>
 * When the last local log of a topic is deleted, the topic's {@link BrokerTopicMetrics} group goes
 * too.
 */
final class LogMetrics implements LogManager.LogListener {

    static final String LOG_GROUP = "log";

    private final MetricsRegistry registry;
    private final BrokerTopicMetrics topicMetrics;
    private final Map<TopicPartition, MetricGroup> groups = new ConcurrentHashMap<>();

    private LogMetrics(MetricsRegistry registry, BrokerTopicMetrics topicMetrics) {
        this.registry = registry;
        this.topicMetrics = topicMetrics;
    }

    /** Starts following {@code logs}: its open logs now, later ones as they come and go, and its fsyncs. */
    static void bind(MetricsRegistry registry, LogManager logs, BrokerTopicMetrics topicMetrics) {
        MetricGroup flushStats = registry.group("log-flush-stats");
        Timer flushTime = flushStats.timer("log-flush-time-ms", "the time to fsync a log, in ms");
        flushStats.gauge("log-flush-total", "fsyncs of a log", flushTime::count);
        logs.onFlush(flushTime::record);
        MetricGroup cleaner = registry.group("log-cleaner-metrics");
        Timer cleanTime = cleaner.timer("clean-time-ms", "the time to clean one compacted partition, in ms");
        cleaner.gauge("cleaned-logs-total", "compacted partitions cleaned", logs.cleaner()::logsCleaned);
        cleaner.gauge("segments-rewritten-total", "segments written again without their removed records",
            logs.cleaner()::segmentsRewritten);
        cleaner.gauge("records-removed-total", "records removed by compaction", logs.cleaner()::recordsRemoved);
        cleaner.gauge("bytes-removed-total", "bytes the rewritten segments shrank by", logs.cleaner()::bytesRemoved);
        logs.cleaner().onCleaned(cleanTime::record);
        logs.addLogListener(new LogMetrics(registry, topicMetrics));
    }

    @Override
    public void logOpened(Log log) {
        TopicPartition tp = log.topicPartition();
        MetricGroup stale = groups.remove(tp);
        if (stale != null) {
            registry.remove(stale);
        }
        MetricGroup group = registry.group(LOG_GROUP,
            Map.of("topic", tp.topic(), "partition", Integer.toString(tp.partition())));
        group.gauge("size", "bytes in the partition's segments", log::size);
        group.gauge("log-start-offset", "the first offset of the log", log::logStartOffset);
        group.gauge("log-end-offset", "the offset the next record will get", log::logEndOffset);
        group.gauge("num-log-segments", "segments of the log", log::numberOfSegments);
        groups.put(tp, group);
    }

    @Override
    public void logDeleted(Log log) {
        TopicPartition tp = log.topicPartition();
        MetricGroup group = groups.remove(tp);
        if (group != null) {
            registry.remove(group);
        }
        if (groups.keySet().stream().noneMatch(other -> other.topic().equals(tp.topic()))) {
            topicMetrics.remove(tp.topic());
        }
    }
}
