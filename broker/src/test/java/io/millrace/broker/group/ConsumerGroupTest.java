package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ConsumerGroupHeartbeatRequest;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/** The consumer group protocol's state machine on the coordinator, driven heartbeat by heartbeat. */
public class ConsumerGroupTest {

    private static final int SESSION_MS = 45_000;
    private final Map<String, Integer> topics = new HashMap<>(Map.of("clicks", 4, "views", 2));
    private final TopicCatalog catalog = new TopicCatalog() {
        @Override
        public Collection<String> names() {
            return topics.keySet();
        }

        @Override
        public int partitionCount(String topic) {
            return topics.getOrDefault(topic, 0);
        }
    };
    private final ConsumerGroup group = new ConsumerGroup("g", GroupConfig.DEFAULT);
    private long now = 1_000;

    private ConsumerGroup.Answer join(String memberId, String instanceId, List<String> subscribed) {
        return group.heartbeat(new ConsumerGroupHeartbeatRequest("g", memberId, 0, instanceId, null, 60_000, subscribed, null,
            null, List.of()), Set.of(), "client", "/127.0.0.1", catalog, now);
    }

    private ConsumerGroup.Answer beat(String memberId, int epoch, Set<TopicPartition> owned) {
        return group.heartbeat(new ConsumerGroupHeartbeatRequest("g", memberId, epoch, null, null, -1, null, null, null,
            owned == null ? null : List.of()), owned, "client", "/127.0.0.1", catalog, now);
    }

    private static Set<TopicPartition> clicks(int... partitions) {
        Set<TopicPartition> set = new HashSet<>();
        for (int p : partitions) {
            set.add(new TopicPartition("clicks", p));
        }
        return set;
    }

    @Test
    public void aSecondMemberGetsPartitionsOnlyAfterTheFirstHasGivenThemUp() {
        ConsumerGroup.Answer a = join("a", null, List.of("clicks"));
        assertEquals(Errors.NONE, a.error());
        assertEquals(1, a.epoch());
        assertEquals(clicks(0, 1, 2, 3), a.assignment());

        ConsumerGroup.Answer b = join("b", null, List.of("clicks"));
        assertEquals("b waits: a still holds its half", Set.of(), b.assignment());
        assertEquals(2, b.epoch());

        ConsumerGroup.Answer revoke = beat("a", 1, clicks(0, 1, 2, 3));
        assertEquals("a is told to keep half, at its old epoch", 2, revoke.assignment().size());
        assertEquals(1, revoke.epoch());
        Set<TopicPartition> given = clicks(0, 1, 2, 3);
        given.removeAll(revoke.assignment());

        assertNull("nothing new for b while a has not reported", beat("b", 2, Set.of()).assignment());
        ConsumerGroup.Answer revoked = beat("a", 1, revoke.assignment());
        assertEquals("a reaches the group's epoch once it gave them up", 2, revoked.epoch());
        assertNull(revoked.assignment());
        assertEquals(given, beat("b", 2, Set.of()).assignment());
    }

    @Test
    public void aStaleEpochIsFencedButALostAnswerIsForgiven() {
        join("a", null, List.of("clicks"));
        join("b", null, List.of("clicks"));
        ConsumerGroup.Answer revoke = beat("a", 1, clicks(0, 1, 2, 3));
        beat("a", 1, revoke.assignment()); // now at epoch 2; suppose this answer was lost
        ConsumerGroup.Answer retried = beat("a", 1, revoke.assignment());
        assertEquals(Errors.NONE, retried.error());
        assertEquals(2, retried.epoch());
        assertEquals(Errors.FENCED_MEMBER_EPOCH, beat("a", 7, null).error());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, beat("nobody", 2, null).error());
    }

    @Test
    public void commitsAreTakenAtTheMembersEpochOnly() {
        join("a", null, List.of("clicks"));
        assertEquals(Errors.NONE, group.checkCommit("a", 1));
        assertEquals(Errors.STALE_MEMBER_EPOCH, group.checkCommit("a", 0));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, group.checkCommit("b", 1));
        assertEquals("no commit from outside while it has members", Errors.UNKNOWN_MEMBER_ID, group.checkCommit("", -1));
    }

    @Test
    public void aMemberWhoseSessionEndsOrWhoDoesNotRevokeInTimeIsRemoved() {
        join("a", null, List.of("clicks"));
        join("b", null, List.of("clicks"));
        now += 30_000;
        beat("b", 2, Set.of());
        beat("a", 1, clicks(0, 1, 2, 3)); // told to give up two, with a 60 s rebalance timeout
        now += SESSION_MS - 1;
        beat("b", 2, Set.of());
        assertEquals(List.of(), group.expire(now));
        now += 60_000 - SESSION_MS + 2;
        beat("b", 2, Set.of());
        assertEquals("a never reported its partitions gone", List.of("a"), group.expire(now));
        ConsumerGroup.Answer all = beat("b", 2, Set.of());
        assertEquals(clicks(0, 1, 2, 3), all.assignment());
        now += SESSION_MS + 1;
        assertEquals(List.of("b"), group.expire(now));
        assertTrue(group.isEmpty());
    }

    @Test
    public void aStaticMemberThatLeavesToReturnGetsItsPartitionsBackWithoutARebalance() {
        join("a", "host-1", List.of("clicks"));
        join("b", "host-2", List.of("clicks"));
        ConsumerGroup.Answer revoke = beat("a", 1, clicks(0, 1, 2, 3));
        beat("a", 1, revoke.assignment());
        Set<TopicPartition> bHas = beat("b", 2, Set.of()).assignment();
        int epoch = group.groupEpoch();
        ConsumerGroup.Answer left = group.heartbeat(new ConsumerGroupHeartbeatRequest("g", "b", -2, "host-2", null, -1, null,
            null, null, null), null, "client", "/127.0.0.1", catalog, now);
        assertEquals(-2, left.epoch());
        assertEquals(Errors.UNRELEASED_INSTANCE_ID, join("b2", "host-1", List.of("clicks")).error());
        ConsumerGroup.Answer back = join("b2", "host-2", List.of("clicks"));
        assertEquals(bHas, back.assignment());
        assertEquals(2, back.epoch());
        assertEquals("no rebalance", epoch, group.groupEpoch());
    }

    @Test
    public void moreMembersThanPartitionsLeaveOneIdleUntilThePartitionCountGrows() {
        TopicPartition v0 = new TopicPartition("views", 0);
        TopicPartition v1 = new TopicPartition("views", 1);
        assertEquals(Set.of(v0, v1), join("a", null, List.of("views")).assignment());
        int bEpoch = join("b", null, List.of("views")).epoch();
        int cEpoch = join("c", null, List.of("views")).epoch();
        Set<TopicPartition> aKeeps = beat("a", 1, Set.of(v0, v1)).assignment();
        assertEquals(1, aKeeps.size());
        assertEquals(cEpoch, beat("a", 1, aKeeps).epoch());
        beat("b", bEpoch, Set.of());
        beat("c", cEpoch, Set.of());
        Set<TopicPartition> bGets = assignmentOf("b");
        Set<TopicPartition> cGets = assignmentOf("c");
        assertEquals("one of b and c waits for a partition", 1, bGets.size() + cGets.size());

        topics.put("views", 3);
        ConsumerGroup.Answer a = beat("a", cEpoch, aKeeps);
        assertEquals("the new partition bumped the group's epoch", cEpoch + 1, a.epoch());
        assertEquals(cEpoch + 1, beat("b", cEpoch, bGets).epoch());
        assertEquals(cEpoch + 1, beat("c", cEpoch, cGets).epoch());
        Set<TopicPartition> union = new HashSet<>(assignmentOf("a"));
        union.addAll(assignmentOf("b"));
        union.addAll(assignmentOf("c"));
        assertEquals(Set.of(v0, v1, new TopicPartition("views", 2)), union);
        assertEquals(List.of(1, 1, 1), List.of(assignmentOf("a").size(), assignmentOf("b").size(), assignmentOf("c").size()));
    }

    private Set<TopicPartition> assignmentOf(String memberId) {
        GroupDescription.Member m = group.describe().members().stream().filter(x -> x.memberId().equals(memberId))
            .findFirst().orElseThrow();
        java.nio.ByteBuffer bytes = m.assignment().duplicate();
        Set<TopicPartition> partitions = new HashSet<>();
        bytes.getShort();
        for (int t = bytes.getInt(); t > 0; t--) {
            byte[] name = new byte[bytes.getShort()];
            bytes.get(name);
            String topic = new String(name, java.nio.charset.StandardCharsets.UTF_8);
            for (int p = bytes.getInt(); p > 0; p--) {
                partitions.add(new TopicPartition(topic, bytes.getInt()));
            }
        }
        return partitions;
    }

    @Test
    public void theNextCoordinatorTakesTheGroupOverFromItsSnapshotMidRebalance() {
        join("a", "host-1", List.of("clicks"));
        int bEpoch = join("b", null, List.of("clicks")).epoch();
        Set<TopicPartition> aKeeps = beat("a", 1, clicks(0, 1, 2, 3)).assignment();
        GroupMetadataRecord stored = GroupMetadataRecord.decode(java.nio.ByteBuffer.wrap(group.snapshot(now).value()));
        assertTrue(ConsumerGroupSnapshot.isConsumerProtocol(stored));
        assertEquals("the group epoch is the generation", group.groupEpoch(), stored.generation());

        ConsumerGroup next = ConsumerGroup.restore("g", GroupConfig.DEFAULT, stored, now);
        assertEquals(group.describe(), next.describe());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, next.checkCommit("c", 1));
        assertEquals(Errors.NONE, next.checkCommit("a", 1));
        ConsumerGroup.Answer b = next.heartbeat(new ConsumerGroupHeartbeatRequest("g", "b", bEpoch, null, null, -1, null, null,
            null, List.of()), Set.of(), "client", "/127.0.0.1", catalog, now);
        assertEquals(Errors.NONE, b.error());
        assertNull("nothing for b while a holds them", b.assignment());
        ConsumerGroup.Answer a = next.heartbeat(new ConsumerGroupHeartbeatRequest("g", "a", 1, null, null, -1, null, null,
            null, List.of()), aKeeps, "client", "/127.0.0.1", catalog, now);
        assertEquals(bEpoch, a.epoch());
        assertEquals(2, next.heartbeat(new ConsumerGroupHeartbeatRequest("g", "b", bEpoch, null, null, -1, null, null,
            null, List.of()), Set.of(), "client", "/127.0.0.1", catalog, now).assignment().size());
        assertEquals("the same epoch as before the move", bEpoch, next.groupEpoch());
        ConsumerGroup empty = new ConsumerGroup("g", GroupConfig.DEFAULT);
        assertNull("an empty group is stored as a tombstone", empty.snapshot(now));
    }

    @Test
    public void aRegularExpressionSubscribesToMatchingTopicsAndAnInvalidOneNeverReachesTheGroup() {
        ConsumerGroup.Answer a = group.heartbeat(new ConsumerGroupHeartbeatRequest("g", "a", 0, null, null, 60_000, null,
            "cl.*", null, List.of()), Set.of(), "client", "/127.0.0.1", catalog, now);
        assertEquals(clicks(0, 1, 2, 3), a.assignment());
        assertEquals(Set.of("clicks"), group.subscribedTopics());
    }
}
