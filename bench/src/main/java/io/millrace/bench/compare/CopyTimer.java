package io.millrace.bench.compare;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import java.time.Duration;
import java.util.Map;

/**
 * Times a mirror's copy of {@code count} records into one partition of a target topic from the outside,
 * the same way for every mirror: by polling the target partition's end offset every 10 ms. The rate is
 * taken in the steady state, from the moment the first 1% has arrived to the moment all of it has, so a
 * mirror's start-up (a group join, Kafka Connect's herder and internal topics) is not part of it. A copy
 * so short that one poll saw none of it and the next all of it (a {@code --quick} run) is timed from the
 * call instead, start-up included: a rough figure rather than none.
 */
final class CopyTimer implements AutoCloseable {

    private static final Duration LIMIT = Duration.ofMinutes(15);

    private final PartitionReader target;
    private final TopicPartition partition;

    CopyTimer(String bootstrap, String topic) {
        this.target = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", bootstrap,
            "request.timeout.ms", 2_000, "metadata.max.age.ms", 500)));
        this.partition = new TopicPartition(topic, 0);
    }

    /** The target partition's end offset now; 0 while the topic does not exist. */
    long end() {
        try {
            return target.latestOffset(partition);
        } catch (RuntimeException notThereYet) {
            return 0;
        }
    }

    /**
     * Waits until {@code count} records past {@code baseline} are in the target; {@code alive} is checked
     * on every poll and throws if the mirror failed.
     */
    LoadScenarios.Timed await(long baseline, long count, long valueBytes, Runnable alive) throws InterruptedException {
        long calledAt = System.nanoTime();
        long calledCopied = Math.max(0, end() - baseline);
        long deadline = calledAt + LIMIT.toNanos();
        long firstAt = -1;
        long firstCopied = 0;
        while (true) {
            alive.run();
            long copied = end() - baseline;
            long now = System.nanoTime();
            if (firstAt < 0 && copied >= Math.max(1, count / 100)) {
                firstAt = now;
                firstCopied = copied;
            }
            if (copied >= count) {
                if (firstCopied >= count) {
                    firstAt = calledAt;
                    firstCopied = Math.min(calledCopied, count - 1);
                }
                double seconds = Math.max(1e-3, (now - firstAt) / 1e9);
                long measured = count - firstCopied;
                return new LoadScenarios.Timed(measured, measured * valueBytes, seconds);
            }
            if (now > deadline) {
                throw new IllegalStateException("The mirror copied " + copied + " of " + count + " records in " + LIMIT);
            }
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        target.close();
    }
}
