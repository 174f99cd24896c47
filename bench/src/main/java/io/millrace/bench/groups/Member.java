package io.millrace.bench.groups;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One group member: a {@code KafkaConsumer} subscribed to one topic and polling on a thread of its
 * own, as an application's would, telling an {@link AssignmentTracker} what its rebalance listener
 * hears. The consumer is made before {@link #start}, so its construction is never timed; the thread
 * waits for {@code go} before subscribing, so that several members can subscribe at once. Work
 * given to {@link #call} runs on the polling thread between polls (a consumer is single-threaded).
 */
final class Member implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final long TIMEOUT_MS = 60_000;

    private final String name;
    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AssignmentTracker<TopicPartition> tracker;
    private final CountDownLatch go;
    private final BlockingQueue<Runnable> jobs = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Long subscribedNanos;
    private volatile Long firstRecordNanos;
    private volatile Throwable failure;

    Member(String name, Map<String, Object> props, String topic, AssignmentTracker<TopicPartition> tracker,
           CountDownLatch go) {
        this.name = name;
        this.topic = topic;
        this.tracker = tracker;
        this.go = go;
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::run, "bench-groups-" + name);
        this.thread.setDaemon(true);
    }

    Member start() {
        thread.start();
        return this;
    }

    /** When subscribe() was called, or null before. */
    Long subscribedNanos() {
        return subscribedNanos;
    }

    /** When the first poll with records returned, or null before. */
    Long firstRecordNanos() {
        return firstRecordNanos;
    }

    /** Throws what ended the polling thread, if anything did. */
    void checkAlive() {
        if (failure != null) {
            throw new IllegalStateException("member " + name + " failed", failure);
        }
    }

    /** Runs {@code work} on the polling thread. */
    <T> CompletableFuture<T> call(Function<KafkaConsumer<byte[], byte[]>, T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        jobs.add(() -> {
            try {
                result.complete(work.apply(consumer));
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private void run() {
        try {
            go.await();
            tracker.member(name);
            subscribedNanos = System.nanoTime();
            consumer.subscribe(List.of(topic), listener());
            while (running) {
                Runnable job = jobs.poll();
                if (job != null) {
                    job.run();
                } else if (!consumer.poll(POLL).isEmpty() && firstRecordNanos == null) {
                    firstRecordNanos = System.nanoTime();
                }
            }
        } catch (WakeupException stopping) {
            // close()
        } catch (Throwable t) {
            failure = t;
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private ConsumerRebalanceListener listener() {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                tracker.revoked(name, partitions, System.nanoTime());
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                tracker.revoked(name, partitions, System.nanoTime());
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                tracker.assigned(name, partitions, System.nanoTime());
            }
        };
    }

    /** Stops polling and closes the consumer (which leaves the group). */
    @Override
    public void close() throws InterruptedException {
        running = false;
        go.countDown();
        consumer.wakeup();
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }

    /** Waits until {@code tracker} sees a complete assignment; fails after a minute or when a member fails. */
    static void await(AssignmentTracker<TopicPartition> tracker, List<Member> members, String what)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (!tracker.await(100)) {
            members.forEach(Member::checkAlive);
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(what + " did not own every partition after " + TIMEOUT_MS + " ms");
            }
        }
    }
}
