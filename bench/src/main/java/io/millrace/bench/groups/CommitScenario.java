package io.millrace.bench.groups;

import io.millrace.bench.groups.GroupFigures.Figure;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Scenario 3: how many {@code commitSync} calls a second the coordinator answers, each waiting for
 * the previous one's answer, from members of a stable group (so each commit is fenced by generation)
 * subscribed to a topic of {@value #PARTITIONS} partitions: one member committing 1 or all 12 of its
 * partitions per call, and {@value #PARALLEL_MEMBERS} members of one group committing one of their
 * partitions each, all at once. Every commit carries a higher offset than the last and no metadata.
 */
final class CommitScenario {

    static final Figure ONE = new Figure("3. commitSync, 1 consumer, 1 partition per commit", "commits/s", true);
    static final Figure ALL = new Figure("3. commitSync, 1 consumer, 12 partitions per commit", "commits/s", true);
    static final Figure PARALLEL = new Figure("3. commitSync, 4 consumers of one group at once, 1 partition each",
        "commits/s", true);

    /** The broker's CPU per commit of {@code rate}, one of the figures above. */
    static Figure cpuFigure(Figure rate) {
        return new Figure(rate.name().replace("3. commitSync", "3. broker CPU per commit"), "µs", false);
    }

    static final String TOPIC = "commits";
    static final int PARTITIONS = 12;
    static final int PARALLEL_MEMBERS = 4;
    /** Members take jobs between polls of up to 100 ms: all start committing at once after this. */
    private static final long START_DELAY_MS = 300;

    private record Done(long commits, long endNanos) {
    }

    /** How many commits were answered in how long. */
    record Rate(long commits, double seconds) {
        double perSecond() {
            return commits / seconds;
        }
    }

    private CommitScenario() {
    }

    static void prepare(String bootstrap) throws Exception {
        GroupClients.createTopic(bootstrap, TOPIC, PARTITIONS);
    }

    /** One member committing {@code partitionsPerCommit} partitions per call. */
    static Rate single(String bootstrap, String group, int partitionsPerCommit, double seconds, int heartbeatMs)
            throws Exception {
        return rate(bootstrap, group, 1, seconds, heartbeatMs,
            owned -> GroupClients.partitions(TOPIC, partitionsPerCommit));
    }

    /** {@value #PARALLEL_MEMBERS} members committing one partition each per call. */
    static Rate parallel(String bootstrap, String group, double seconds, int heartbeatMs) throws Exception {
        return rate(bootstrap, group, PARALLEL_MEMBERS, seconds, heartbeatMs,
            owned -> List.of(owned.stream().min(Comparator.comparingInt(TopicPartition::partition)).orElseThrow()));
    }

    private static Rate rate(String bootstrap, String group, int memberCount, double seconds, int heartbeatMs,
                               java.util.function.Function<List<TopicPartition>, List<TopicPartition>> toCommit)
            throws Exception {
        AssignmentTracker<TopicPartition> tracker = new AssignmentTracker<>(GroupClients.partitions(TOPIC, PARTITIONS),
            memberCount);
        CountDownLatch go = new CountDownLatch(1);
        List<Member> members = new ArrayList<>();
        try {
            for (int i = 0; i < memberCount; i++) {
                String name = group + "-" + i;
                members.add(new Member(name, GroupClients.consumer(bootstrap, group, name, heartbeatMs, null), TOPIC, tracker, go)
                    .start());
            }
            go.countDown();
            Member.await(tracker, members, memberCount + " committing members");
            return measure(members, seconds, toCommit);
        } finally {
            for (Member m : members) {
                m.close();
            }
        }
    }

    private static Rate measure(List<Member> members, double seconds,
                                  java.util.function.Function<List<TopicPartition>, List<TopicPartition>> toCommit)
            throws Exception {
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_DELAY_MS);
        long end = start + (long) (seconds * 1e9);
        List<CompletableFuture<Done>> done = new ArrayList<>();
        for (Member m : members) {
            done.add(m.call(c -> commitUntil(c, toCommit.apply(List.copyOf(c.assignment())), start, end)));
        }
        long commits = 0;
        long last = start;
        for (CompletableFuture<Done> d : done) {
            Done r = d.get((long) seconds + 60, TimeUnit.SECONDS);
            commits += r.commits();
            last = Math.max(last, r.endNanos());
        }
        return new Rate(commits, (last - start) / 1e9);
    }

    /** Commits {@code partitions} back to back from {@code startNanos} until {@code endNanos}. */
    private static Done commitUntil(KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions,
                                    long startNanos, long endNanos) {
        sleepUntil(startNanos);
        long commits = 0;
        while (System.nanoTime() < endNanos) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (TopicPartition tp : partitions) {
                offsets.put(tp, new OffsetAndMetadata(commits + 1));
            }
            consumer.commitSync(offsets);
            commits++;
        }
        return new Done(commits, System.nanoTime());
    }

    private static void sleepUntil(long nanos) {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted before committing", e);
            }
        }
    }
}
