package io.millrace.bench.groups;

import io.millrace.bench.groups.GroupFigures.Figure;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.TopicPartition;

/**
 * Scenario 1: {@value #MEMBERS} consumers of a new group subscribe at once to a topic of
 * {@value #PARTITIONS} partitions holding data, and each polls until it has a record. Timed from the
 * first subscribe() to the first member's first record, and to the last member's: that is joining
 * (FindCoordinator, JoinGroup twice, SyncGroup, with whatever rebalances the members' arrival
 * causes), fetching the committed offsets (none) and the first fetch.
 */
final class JoinScenario {

    static final Figure FIRST = new Figure("1. subscribe() to first record, first of 3 members", "ms", false);
    static final Figure ALL = new Figure("1. subscribe() to first record, all 3 members", "ms", false);

    static final String TOPIC = "join";
    static final int MEMBERS = 3;
    static final int PARTITIONS = 6;
    static final int RECORDS_PER_PARTITION = 1_000;
    private static final long TIMEOUT_MS = 60_000;

    /** Milliseconds from the first subscribe() to the first member's first record and to every member's. */
    record Result(double firstMs, double allMs) {
    }

    private JoinScenario() {
    }

    static void prepare(String bootstrap) throws Exception {
        GroupClients.createTopic(bootstrap, TOPIC, PARTITIONS);
        GroupClients.fill(bootstrap, TOPIC, PARTITIONS, RECORDS_PER_PARTITION);
    }

    static Result run(String bootstrap, String group, int heartbeatMs) throws Exception {
        AssignmentTracker<TopicPartition> tracker = new AssignmentTracker<>(GroupClients.partitions(TOPIC, PARTITIONS), MEMBERS);
        CountDownLatch go = new CountDownLatch(1);
        List<Member> members = new ArrayList<>();
        try {
            for (int i = 0; i < MEMBERS; i++) {
                String name = group + "-" + i;
                members.add(new Member(name, GroupClients.consumer(bootstrap, group, name, heartbeatMs, null), TOPIC, tracker, go)
                    .start());
            }
            go.countDown();
            awaitFirstRecords(members);
            return result(members);
        } finally {
            for (Member m : members) {
                m.close();
            }
        }
    }

    private static void awaitFirstRecords(List<Member> members) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT_MS * 1_000_000L;
        while (!members.stream().allMatch(m -> m.firstRecordNanos() != null)) {
            members.forEach(Member::checkAlive);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not every member had a record after " + TIMEOUT_MS + " ms");
            }
            Thread.sleep(2);
        }
    }

    private static Result result(List<Member> members) {
        long subscribed = members.stream().mapToLong(Member::subscribedNanos).min().orElseThrow();
        long first = members.stream().mapToLong(Member::firstRecordNanos).min().orElseThrow();
        long last = members.stream().mapToLong(Member::firstRecordNanos).max().orElseThrow();
        return new Result((first - subscribed) / 1e6, (last - subscribed) / 1e6);
    }
}
