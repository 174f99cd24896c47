package io.millrace.broker.server;

import io.millrace.broker.network.Counter;
import io.millrace.broker.network.MetricGroup;
import io.millrace.broker.network.MetricsRegistry;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.common.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches waiting for data (Kafka's fetch purgatory, in small): each is watched on its partitions
 * and completed by the first append to one of them that brings enough bytes, or by a timer thread
 * when its {@code max_wait_ms} ends, capped by {@code fetch.max.wait.cap.ms}. A fetch whose partition
 * is deleted is answered at once, and one whose connection closed is dropped by a sweep every second
 * (its memory and in-flight slot freed). No request thread ever waits here. Appends check only the
 * fetches watching their partition.
 */
final class FetchPurgatory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FetchPurgatory.class);

    private final Map<TopicPartition, Set<DelayedFetch>> watchers = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private final Counter completedByAppend = new Counter();
    private final Counter expired = new Counter();

    private static final long SWEEP_MS = 1_000;

    private final long maxWaitCapMs;
    private final Counter cancelled = new Counter();

    FetchPurgatory(String name, long maxWaitCapMs) {
        this.maxWaitCapMs = maxWaitCapMs;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = Executors.defaultThreadFactory().newThread(r);
            t.setName(name + "-fetch-purgatory");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.timer = executor;
        timer.scheduleWithFixedDelay(this::dropDisconnected, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
    }

    /** Parks {@code fetch} until an append completes it or {@code maxWaitMs} passes. */
    void watch(DelayedFetch fetch, long maxWaitMs) {
        List<TopicPartition> partitions = fetch.partitions();
        for (TopicPartition tp : partitions) {
            watchers.compute(tp, (k, set) -> {
                Set<DelayedFetch> watching = set != null ? set : ConcurrentHashMap.newKeySet();
                watching.add(fetch);
                return watching;
            });
        }
        try {
            fetch.setTimeout(timer.schedule(() -> expire(fetch, partitions), Math.min(maxWaitMs, maxWaitCapMs),
                TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            expire(fetch, partitions); // shutting down: answer with what there is
            return;
        }
        // An append between the first read and the registration above would not have seen this fetch.
        DelayedFetch.Outcome outcome = fetch.tryComplete(() -> answeredByAppend(fetch, partitions));
        if (outcome.isDone()) {
            unwatch(fetch, partitions);
        }
    }

    /** Completes the fetches on {@code tp} that now have enough data. */
    void onAppend(TopicPartition tp) {
        Set<DelayedFetch> waiting = watchers.get(tp);
        if (waiting == null) {
            return;
        }
        for (DelayedFetch fetch : waiting) {
            List<TopicPartition> partitions = fetch.partitions();
            DelayedFetch.Outcome outcome = fetch.tryComplete(() -> answeredByAppend(fetch, partitions));
            if (outcome.isDone()) {
                unwatch(fetch, partitions);
            }
        }
    }

    /** Tells the purgatory of deleted partitions: their waiting fetches are answered now, not at their timeout. */
    LogManager.LogListener deletionListener() {
        return new LogManager.LogListener() {
            @Override
            public void logOpened(Log log) {
            }

            @Override
            public void logDeleted(Log log) {
                Set<DelayedFetch> waiting = watchers.get(log.topicPartition());
                if (waiting != null) {
                    waiting.forEach(fetch -> timer.execute(() -> expire(fetch, fetch.partitions())));
                }
            }
        };
    }

    /** Drops the waiting fetches whose client went away: nobody would read their answer. */
    private void dropDisconnected() {
        for (Set<DelayedFetch> waiting : watchers.values()) {
            for (DelayedFetch fetch : waiting) {
                if (!fetch.isConnectionOpen() && fetch.cancel()) {
                    cancelled.increment();
                    unwatch(fetch, fetch.partitions());
                }
            }
        }
    }

    private void answeredByAppend(DelayedFetch fetch, List<TopicPartition> partitions) {
        completedByAppend.increment();
        unwatch(fetch, partitions);
    }

    /**
     * Exports {@code io.millrace:type=delayed-fetch-metrics}: {@code completed-by-append-total}
     * (waiting fetches answered because an append brought enough data), {@code expired-total}
     * (answered when {@code max_wait_ms} ended, or at shutdown) and {@code purgatory-size}.
     */
    void bindMetrics(MetricsRegistry registry) {
        MetricGroup group = registry.group("delayed-fetch-metrics");
        group.gauge("completed-by-append-total", "waiting fetches answered because an append brought enough data",
            completedByAppend::count);
        group.gauge("expired-total", "waiting fetches answered when their max_wait_ms ended", expired::count);
        group.gauge("purgatory-size", "fetches waiting for data now", this::size);
        group.gauge("cancelled-total", "waiting fetches dropped because their connection closed", cancelled::count);
    }


    /** The number of fetches waiting, for tests and metrics. */
    int size() {
        return (int) watchers.values().stream().flatMap(Set::stream).distinct().count();
    }

    private void expire(DelayedFetch fetch, List<TopicPartition> partitions) {
        try {
            fetch.expire(() -> {
                expired.increment();
                unwatch(fetch, partitions);
            });
        } catch (RuntimeException e) {
            LOG.error("Could not answer a waiting fetch", e);
        } finally {
            unwatch(fetch, partitions);
        }
    }

    private void unwatch(DelayedFetch fetch, List<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            watchers.computeIfPresent(tp, (k, set) -> {
                set.remove(fetch);
                return set.isEmpty() ? null : set;
            });
        }
    }

    /** Answers every waiting fetch with what there is now, and stops the timer. */
    @Override
    public void close() {
        timer.shutdownNow();
        for (Set<DelayedFetch> waiting : watchers.values()) {
            for (DelayedFetch fetch : waiting) {
                expire(fetch, fetch.partitions());
            }
        }
    }
}
