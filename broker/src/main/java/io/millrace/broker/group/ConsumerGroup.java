package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ConsumerGroupHeartbeatRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A group on the consumer group protocol of KIP-848: the coordinator computes the assignment and
 * each member moves to it through its own heartbeats, with no group-wide barrier. A membership,
 * subscription or partition count change bumps the group epoch; the assignor then computes the
 * target for that epoch. A member first gives up what the target takes from it (its epoch stays
 * until it reports them gone), then gets the epoch and those of its target partitions no other
 * member still holds; the rest come at later heartbeats, as their holders let them go. So no
 * partition is ever held by two members. Held in memory on the coordinator: when the coordinator
 * moves, members are told UNKNOWN_MEMBER_ID there and join again. All methods are synchronized.
 */
final class ConsumerGroup {

    /** What a heartbeat is answered: an error, or the member's id, epoch and (when it changed) assignment. */
    record Answer(Errors error, String message, String memberId, int epoch, Set<TopicPartition> assignment) {
        static Answer refused(Errors error, String message) {
            return new Answer(error, message, null, -1, null);
        }
    }

    private final String groupId;
    private final GroupConfig config;
    /** Held while a snapshot is taken and appended, so that snapshots reach the log in the order taken. */
    final Object storeLock = new Object();
    /** The last snapshot appended (a tombstone's is empty); only under {@link #storeLock}. */
    byte[] stored;
    private final Map<String, ConsumerGroupMember> members = new TreeMap<>();
    private int groupEpoch;
    private int assignmentEpoch;
    private Map<String, Set<TopicPartition>> target = new HashMap<>();
    /** The subscribed topics' partition counts the target was computed with; null when taken over, until the first heartbeat. */
    private Map<String, Integer> assignedCounts = Map.of();
    private String assignorName = ServerAssignor.DEFAULT;

    ConsumerGroup(String groupId, GroupConfig config) {
        this.groupId = groupId;
        this.config = config;
    }

    String groupId() {
        return groupId;
    }

    synchronized boolean isEmpty() {
        return members.isEmpty();
    }

    synchronized int groupEpoch() {
        return groupEpoch;
    }

    /** One heartbeat; {@code owned} is the partitions the member reports it owns, null when unchanged. */
    synchronized Answer heartbeat(ConsumerGroupHeartbeatRequest request, Set<TopicPartition> owned, String clientId,
                                  String clientHost, TopicCatalog topics, long nowMs) {
        int epoch = request.memberEpoch();
        if (epoch == ConsumerGroupHeartbeatRequest.LEAVE_EPOCH || epoch == ConsumerGroupHeartbeatRequest.STATIC_LEAVE_EPOCH) {
            return leave(request, nowMs);
        }
        ConsumerGroupMember member;
        boolean joining = epoch == ConsumerGroupHeartbeatRequest.JOIN_EPOCH;
        boolean newMember = false;
        if (joining) {
            if (members.size() >= config.maxSize() && !members.containsKey(request.memberId())) {
                return Answer.refused(Errors.GROUP_MAX_SIZE_REACHED, "Group " + groupId + " has " + members.size()
                    + " members, the most group.max.size allows");
            }
            member = join(request, clientId, clientHost);
            if (member == null) {
                return Answer.refused(Errors.UNRELEASED_INSTANCE_ID, "Instance id " + request.instanceId()
                    + " is used by a member of group " + groupId + " that has not left");
            }
            newMember = member.epoch == 0;
        } else {
            member = members.get(request.memberId());
            if (member == null || member.leftToReturn) {
                return Answer.refused(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not in group " + groupId);
            }
            boolean lostAnswer = epoch == member.previousEpoch && owned != null && member.assigned.containsAll(owned);
            if (epoch != member.epoch && !lostAnswer) {
                return Answer.refused(Errors.FENCED_MEMBER_EPOCH, "Member " + member.memberId + " is at epoch "
                    + member.epoch + ", not " + epoch);
            }
        }
        if (updateSubscription(member, request) | newMember) {
            groupEpoch++;
        }
        member.sessionDeadlineMs = nowMs + config.consumerSessionTimeoutMs();
        refreshTarget(topics);
        reconcile(member, owned, nowMs);
        Set<TopicPartition> assignment = null;
        if (joining || !member.assigned.equals(member.sent)) {
            assignment = Set.copyOf(member.assigned);
            member.sent = assignment;
        }
        return new Answer(Errors.NONE, null, member.memberId, member.epoch, assignment);
    }

    /** A new member, or a static member taking over from its previous incarnation; null if that one has not left. */
    private ConsumerGroupMember join(ConsumerGroupHeartbeatRequest request, String clientId, String clientHost) {
        String memberId = request.memberId().isEmpty() ? UUID.randomUUID().toString() : request.memberId();
        ConsumerGroupMember previous = request.instanceId() == null ? null : members.values().stream()
            .filter(m -> request.instanceId().equals(m.instanceId)).findFirst().orElse(null);
        if (previous != null && !previous.leftToReturn && !previous.memberId.equals(memberId)) {
            return null;
        }
        ConsumerGroupMember member = new ConsumerGroupMember(memberId, request.instanceId(), clientId, clientHost);
        if (previous != null) {
            // the static member's partitions were kept for it: it takes them over at its epoch, no rebalance
            members.remove(previous.memberId);
            member.epoch = previous.epoch;
            member.assigned.addAll(previous.assigned);
            member.revoking.addAll(previous.revoking);
            member.revocationDeadlineMs = previous.revocationDeadlineMs;
            member.topicNames = previous.topicNames;
            member.topicRegex = previous.topicRegex;
            member.assignor = previous.assignor;
            Set<TopicPartition> kept = target.remove(previous.memberId);
            if (kept != null) {
                target.put(memberId, kept);
            }
        } else if (members.remove(memberId) != null) {
            target.remove(memberId);
        }
        members.put(memberId, member);
        return member;
    }

    private Answer leave(ConsumerGroupHeartbeatRequest request, long nowMs) {
        ConsumerGroupMember member = members.get(request.memberId());
        if (member == null) {
            return Answer.refused(Errors.UNKNOWN_MEMBER_ID, "Member " + request.memberId() + " is not in group " + groupId);
        }
        if (request.memberEpoch() == ConsumerGroupHeartbeatRequest.STATIC_LEAVE_EPOCH && member.instanceId != null) {
            member.leftToReturn = true;
            member.sessionDeadlineMs = nowMs + config.consumerSessionTimeoutMs();
        } else {
            remove(member);
        }
        return new Answer(Errors.NONE, null, member.memberId, request.memberEpoch(), null);
    }

    /** Applies what the heartbeat changed; true when the subscription did. */
    private static boolean updateSubscription(ConsumerGroupMember member, ConsumerGroupHeartbeatRequest request) {
        boolean changed = false;
        if (request.subscribedTopicNames() != null && !request.subscribedTopicNames().equals(member.topicNames)) {
            member.topicNames = List.copyOf(request.subscribedTopicNames());
            changed = true;
        }
        if (request.subscribedTopicRegex() != null) {
            String regex = request.subscribedTopicRegex().isEmpty() ? null : request.subscribedTopicRegex();
            String before = member.topicRegex == null ? null : member.topicRegex.pattern();
            if (!java.util.Objects.equals(regex, before)) {
                member.topicRegex = regex == null ? null : Pattern.compile(regex);
                changed = true;
            }
        }
        if (request.serverAssignor() != null && !request.serverAssignor().equals(member.assignor)) {
            member.assignor = request.serverAssignor();
            changed = true;
        }
        if (request.rackId() != null) {
            member.rackId = request.rackId();
        }
        if (request.rebalanceTimeoutMs() >= 0) {
            member.rebalanceTimeoutMs = request.rebalanceTimeoutMs();
        }
        return changed;
    }

    /** Recomputes the target when the group epoch moved or a subscribed topic's partition count changed. */
    private void refreshTarget(TopicCatalog topics) {
        Map<String, Set<String>> subscriptions = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
        for (ConsumerGroupMember m : members.values()) {
            Set<String> subscribed = new HashSet<>();
            for (String topic : m.topicNames) {
                if (topics.partitionCount(topic) > 0) {
                    subscribed.add(topic);
                }
            }
            if (m.topicRegex != null) {
                for (String topic : topics.names()) {
                    if (m.topicRegex.matcher(topic).matches()) {
                        subscribed.add(topic);
                    }
                }
            }
            subscribed.forEach(t -> counts.put(t, topics.partitionCount(t)));
            subscriptions.put(m.memberId, subscribed);
        }
        if (assignedCounts == null) {
            assignedCounts = counts; // taken over: the target stored with the group was computed with the same topics
        }
        if (!counts.equals(assignedCounts) && groupEpoch == assignmentEpoch) {
            groupEpoch++;
        }
        if (groupEpoch == assignmentEpoch) {
            return;
        }
        assignorName = members.values().stream().map(m -> m.assignor).filter(java.util.Objects::nonNull).findFirst()
            .orElse(ServerAssignor.DEFAULT);
        ServerAssignor assignor = ServerAssignor.named(assignorName).orElseGet(UniformAssignor::new);
        target = new HashMap<>(assignor.assign(subscriptions, counts, target));
        assignedCounts = counts;
        assignmentEpoch = groupEpoch;
    }

    /**
     * Moves the member one step towards its target: revocations first, then its epoch and the target
     * partitions nobody else holds.
     */
    private void reconcile(ConsumerGroupMember member, Set<TopicPartition> owned, long nowMs) {
        if (!member.revoking.isEmpty() && owned != null && Collections.disjoint(owned, member.revoking)) {
            member.revoking.clear();
        }
        if (!member.revoking.isEmpty()) {
            return;
        }
        Set<TopicPartition> desired = target.getOrDefault(member.memberId, Set.of());
        Set<TopicPartition> revoke = new HashSet<>(member.assigned);
        revoke.removeAll(desired);
        if (!revoke.isEmpty()) {
            member.assigned.removeAll(revoke);
            member.revoking.addAll(revoke);
            member.revocationDeadlineMs = nowMs + Math.max(member.rebalanceTimeoutMs, config.consumerHeartbeatIntervalMs());
            return;
        }
        Set<TopicPartition> heldByOthers = new HashSet<>();
        for (ConsumerGroupMember other : members.values()) {
            if (other != member) {
                heldByOthers.addAll(other.assigned);
                heldByOthers.addAll(other.revoking);
            }
        }
        for (TopicPartition tp : desired) {
            if (!heldByOthers.contains(tp)) {
                member.assigned.add(tp);
            }
        }
        if (member.epoch != assignmentEpoch) {
            member.previousEpoch = member.epoch;
            member.epoch = assignmentEpoch;
        }
    }

    private void remove(ConsumerGroupMember member) {
        members.remove(member.memberId);
        target.remove(member.memberId);
        groupEpoch++;
    }

    /**
     * Removes members whose session ended and members that did not give up their partitions within
     * their rebalance timeout; returns the ids removed.
     */
    synchronized List<String> expire(long nowMs) {
        List<String> expired = new ArrayList<>();
        for (ConsumerGroupMember m : List.copyOf(members.values())) {
            boolean revocationLate = !m.revoking.isEmpty() && nowMs > m.revocationDeadlineMs;
            if (nowMs > m.sessionDeadlineMs || revocationLate) {
                remove(m);
                expired.add(m.memberId);
            }
        }
        return expired;
    }

    /** The group as the offsets topic keeps it ({@link ConsumerGroupSnapshot}); null, a tombstone, once it has no members. */
    synchronized GroupMetadataRecord snapshot(long nowMs) {
        if (members.isEmpty()) {
            return null;
        }
        List<GroupMetadataRecord.Member> stored = new ArrayList<>();
        for (ConsumerGroupMember m : members.values()) {
            stored.add(ConsumerGroupSnapshot.member(m, assignmentEpoch, target.getOrDefault(m.memberId, Set.of()),
                config.consumerSessionTimeoutMs()));
        }
        return new GroupMetadataRecord(SubscribedTopics.CONSUMER_PROTOCOL_TYPE, groupEpoch, assignorName, null, nowMs, stored);
    }

    /**
     * The group as the previous coordinator stored it: every member at its epoch with its partitions,
     * its session starting now.
     *
     * @throws IllegalArgumentException a member that does not parse
     */
    static ConsumerGroup restore(String groupId, GroupConfig config, GroupMetadataRecord record, long nowMs) {
        ConsumerGroup group = new ConsumerGroup(groupId, config);
        group.groupEpoch = record.generation();
        group.assignorName = record.protocol();
        group.assignedCounts = null;
        for (GroupMetadataRecord.Member stored : record.members()) {
            ConsumerGroupSnapshot.Restored restored = ConsumerGroupSnapshot.restore(stored);
            ConsumerGroupMember m = restored.member();
            m.sessionDeadlineMs = nowMs + config.consumerSessionTimeoutMs();
            m.revocationDeadlineMs = nowMs + Math.max(m.rebalanceTimeoutMs, config.consumerHeartbeatIntervalMs());
            group.members.put(m.memberId, m);
            group.target.put(m.memberId, restored.target());
            group.assignmentEpoch = restored.assignmentEpoch();
        }
        return group;
    }

    /** The topics some member subscribes to: by name, or by its regular expression among those last assigned. */
    synchronized Set<String> subscribedTopics() {
        Set<String> topics = new HashSet<>();
        for (ConsumerGroupMember m : members.values()) {
            topics.addAll(m.topicNames);
            if (assignedCounts != null) {
                topics.addAll(assignedCounts.keySet().stream().filter(m::subscribes).toList());
            }
        }
        return topics;
    }

    /**
     * Whether an offset commit from this member at this epoch may be taken: a member of the group
     * at its current epoch, or a commit from outside the group (empty member id, epoch below 0)
     * while it has no members.
     */
    synchronized Errors checkCommit(String memberId, int epoch) {
        if ((memberId == null || memberId.isEmpty()) && epoch < 0) {
            return members.isEmpty() ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
        }
        ConsumerGroupMember member = members.get(memberId);
        if (member == null || member.leftToReturn) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return epoch == member.epoch ? Errors.NONE : Errors.STALE_MEMBER_EPOCH;
    }

    /** The group in DescribeGroups' terms: protocol type "consumer", the assignor as protocol, each member's partitions. */
    synchronized GroupDescription describe() {
        List<GroupDescription.Member> described = new ArrayList<>();
        boolean settled = true;
        for (ConsumerGroupMember m : members.values()) {
            Set<TopicPartition> desired = target.getOrDefault(m.memberId, Set.of());
            settled &= m.revoking.isEmpty() && m.assigned.equals(desired) && m.epoch == assignmentEpoch;
            described.add(new GroupDescription.Member(m.memberId, m.instanceId, m.clientId, m.clientHost,
                java.nio.ByteBuffer.allocate(0), ConsumerAssignmentBytes.of(m.assigned)));
        }
        GroupState state = members.isEmpty() ? GroupState.EMPTY : settled ? GroupState.STABLE : GroupState.RECONCILING;
        return new GroupDescription(groupId, state, SubscribedTopics.CONSUMER_PROTOCOL_TYPE, assignorName, described);
    }
}
