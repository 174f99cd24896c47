package io.millrace.consumer;

import io.millrace.common.serialization.Deserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code poll()}-style face of the {@link GroupConsumer}, for code shaped like Kafka's consumer
 * loop: subscribe, then {@link #poll} batches of records and {@link #commit()} when they are
 * processed. Underneath, one message stream per topic (or one for a pattern). Not thread-safe: one
 * polling thread, as with Kafka's consumer.
 *
 * <p>What counts as processed, and so what any commit (auto-commit, a rebalance, {@link #close()})
 * writes: the records of every {@link #poll} before the last one, and those of the last one once
 * {@link #commit()} is called. So an exception while a batch is processed, with the consumer in
 * try-with-resources, commits nothing of that batch: it is delivered again.
 */
public final class PollingConsumer<K, V> implements AutoCloseable {

    private final GroupConsumer<K, V> group;
    private final int maxRecords;
    private final List<ConsumerIterator<K, V>> iterators = new ArrayList<>();
    private int nextStream;

    /** @param maxRecords the most records one {@link #poll} returns */
    public PollingConsumer(ConsumerConfig config, Deserializer<K> keys, Deserializer<V> values, int maxRecords) {
        this.group = new GroupConsumer<>(config, keys, values);
        this.maxRecords = maxRecords;
    }

    public void subscribe(Set<String> topics) {
        Map<String, Integer> one = new java.util.TreeMap<>();
        topics.forEach(topic -> one.put(topic, 1));
        group.createMessageStreams(one).values().forEach(streams -> iterators.add(streams.get(0).iterator()));
    }

    public void subscribe(String regex) {
        iterators.add(group.createMessageStreamsByFilter(regex, 1).get(0).iterator());
    }

    /**
     * Waits up to {@code timeout} for records and returns what is there, at most {@code maxRecords};
     * an empty list when nothing came (or the consumer was closed). Calling it says the records of the
     * previous poll are processed.
     */
    public List<ConsumerRecord<K, V>> poll(Duration timeout) throws InterruptedException {
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        if (iterators.isEmpty()) {
            throw new IllegalStateException("Subscribe before polling");
        }
        markProcessed();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (records.isEmpty()) {
            drainAvailable(records);
            long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (!records.isEmpty() || leftMs <= 0) {
                break;
            }
            ConsumerRecord<K, V> first = nextIterator().poll(Math.min(leftMs, 10));
            if (first != null) {
                records.add(first);
            }
        }
        return records;
    }

    /**
     * The batch form of {@link #poll}, for a copier that sends what it fetched without decoding it:
     * waits up to {@code timeout} for fetched chunks and returns those there, each one partition's whole
     * batches from its first undelivered offset on (see {@link FetchedBatches#fetchOffset()}: a first
     * batch may start before it), at most one chunk per stream. Empty when nothing came. As with
     * {@link #poll}, calling it says what the previous call returned is processed. A consumer is polled
     * either this way or record by record.
     */
    public List<FetchedBatches> pollBatches(Duration timeout) throws InterruptedException {
        if (iterators.isEmpty()) {
            throw new IllegalStateException("Subscribe before polling");
        }
        markProcessed();
        List<FetchedBatches> chunks = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (int i = 0; i < iterators.size(); i++) {
                FetchedBatches chunk = nextIterator().pollBatches(0);
                if (chunk != null) {
                    chunks.add(chunk);
                }
            }
            long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (!chunks.isEmpty() || leftMs <= 0) {
                return chunks;
            }
            FetchedBatches first = nextIterator().pollBatches(Math.min(leftMs, 10));
            if (first != null) {
                chunks.add(first);
                return chunks;
            }
        }
    }

    /** Takes what the streams hold without waiting, round robin, up to maxRecords. */
    private void drainAvailable(List<ConsumerRecord<K, V>> records) throws InterruptedException {
        int idle = 0;
        while (records.size() < maxRecords && idle < iterators.size()) {
            ConsumerRecord<K, V> record = nextIterator().poll(0);
            if (record == null) {
                idle++;
            } else {
                records.add(record);
                idle = 0;
            }
        }
    }

    private ConsumerIterator<K, V> nextIterator() {
        nextStream = (nextStream + 1) % iterators.size();
        return iterators.get(nextStream);
    }

    /** Commits everything returned by {@link #poll} so far: the caller has processed it all. */
    public void commit() {
        markProcessed();
        group.commit();
    }

    /**
     * Says the records of the last {@link #poll} are processed, without committing: a commit made later
     * (a rebalance's, say) includes them. For an application that finishes records asynchronously, once
     * they are finished; from another thread only while the polling thread is held between two polls.
     */
    public void markProcessed() {
        iterators.forEach(ConsumerIterator::markProcessed);
    }

    public void seek(String topic, int partition, long offset) {
        group.seek(topic, partition, offset);
    }

    /** The group consumer underneath, for its other operations. */
    public GroupConsumer<K, V> groupConsumer() {
        return group;
    }

    @Override
    public void close() {
        group.close();
    }
}
