package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One member of a consumer-protocol group, as its coordinator sees it. Changed only under its
 * {@link ConsumerGroup}'s lock.
 */
final class ConsumerGroupMember {

    final String memberId;
    final String instanceId;
    String rackId;
    final String clientId;
    final String clientHost;
    List<String> topicNames = List.of();
    Pattern topicRegex;
    String assignor;
    /** How long it may take to give up partitions; Kafka's max.poll.interval.ms default until the member says. */
    int rebalanceTimeoutMs = 300_000;

    /** The epoch the member is at; it reaches the group's assignment epoch once it has given up what it must. */
    int epoch;
    /** The epoch before the last bump: a heartbeat whose answer was lost still carries it. */
    int previousEpoch = -1;
    /** The partitions the member may own now. */
    final Set<TopicPartition> assigned = new HashSet<>();
    /** The partitions it was told to give up and has not yet reported gone; nobody else gets them meanwhile. */
    final Set<TopicPartition> revoking = new HashSet<>();
    /** What the member was last sent, so an unchanged assignment is not sent again; null before the first. */
    Set<TopicPartition> sent;
    long sessionDeadlineMs;
    long revocationDeadlineMs;
    /** A static member that left with epoch -2: its partitions wait for its instance id until the session ends. */
    boolean leftToReturn;

    ConsumerGroupMember(String memberId, String instanceId, String clientId, String clientHost) {
        this.memberId = memberId;
        this.instanceId = instanceId;
        this.clientId = clientId;
        this.clientHost = clientHost;
    }

    /** Whether the member subscribes to {@code topic}, by name or by its regular expression. */
    boolean subscribes(String topic) {
        return topicNames.contains(topic) || topicRegex != null && topicRegex.matcher(topic).matches();
    }

    /** Every partition the member holds: those it may own and those it is still giving up. */
    Set<TopicPartition> held() {
        Set<TopicPartition> held = new HashSet<>(assigned);
        held.addAll(revoking);
        return held;
    }
}
