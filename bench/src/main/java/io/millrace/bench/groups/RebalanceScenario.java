package io.millrace.bench.groups;

import io.millrace.bench.groups.GroupFigures.Figure;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.TopicPartition;

/**
 * Scenario 2: a 4th member joins a stable group of 3 that owns a topic of {@value #PARTITIONS}
 * partitions, with the eager range assignor or the cooperative-sticky one. Timed from the new
 * member's subscribe() until every partition is owned again, 3 per member, by the members'
 * rebalance listeners ({@link AssignmentTracker}): for the eager protocol one rebalance in which
 * everyone gives up everything, for the cooperative one two, the second handing the new member the
 * partitions the others revoked in the first.
 */
final class RebalanceScenario {

    static final String RANGE = "org.apache.kafka.clients.consumer.RangeAssignor";
    static final String COOPERATIVE_STICKY = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor";
    static final Figure EAGER = new Figure("2. a 4th member joins 3, eager (range)", "ms", false);
    static final Figure COOPERATIVE = new Figure("2. a 4th member joins 3, cooperative-sticky", "ms", false);

    static final String TOPIC = "rebalance";
    static final int PARTITIONS = 12;
    /** After the first three own everything, so that the group has settled before the 4th comes. */
    private static final long SETTLE_MS = 500;

    private RebalanceScenario() {
    }

    static void prepare(String bootstrap) throws Exception {
        GroupClients.createTopic(bootstrap, TOPIC, PARTITIONS);
    }

    /** Milliseconds from the 4th member's subscribe() to the group's complete assignment. */
    static double run(String bootstrap, String group, String assignor, int heartbeatMs) throws Exception {
        AssignmentTracker<TopicPartition> tracker = new AssignmentTracker<>(GroupClients.partitions(TOPIC, PARTITIONS), 3);
        List<Member> members = new ArrayList<>();
        try {
            CountDownLatch first = new CountDownLatch(1);
            for (int i = 0; i < 3; i++) {
                members.add(member(bootstrap, group, i, assignor, heartbeatMs, tracker, first).start());
            }
            first.countDown();
            Member.await(tracker, members, "the first 3 members");
            Thread.sleep(SETTLE_MS);
            CountDownLatch fourth = new CountDownLatch(1);
            Member joining = member(bootstrap, group, 3, assignor, heartbeatMs, tracker, fourth).start();
            members.add(joining);
            tracker.expect(4, System.nanoTime());
            fourth.countDown();
            Member.await(tracker, members, "4 members");
            return (tracker.completedAtNanos() - joining.subscribedNanos()) / 1e6;
        } finally {
            for (Member m : members) {
                m.close();
            }
        }
    }

    private static Member member(String bootstrap, String group, int i, String assignor, int heartbeatMs,
                                 AssignmentTracker<TopicPartition> tracker, CountDownLatch go) {
        String name = group + "-" + i;
        return new Member(name, GroupClients.consumer(bootstrap, group, name, heartbeatMs, assignor), TOPIC, tracker, go);
    }
}
