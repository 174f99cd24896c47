package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A consumer-protocol group's members as kept in the offsets topic, in the group metadata record
 * classic groups use ({@link GroupMetadataRecord}), so that the next coordinator takes the group over
 * and Kafka's tools read it: protocol type "consumer", the group epoch as generation, the assignor
 * as protocol and no leader (a classic generation always has one, which tells the two apart). Each
 * member's subscription is Kafka's ConsumerProtocolSubscription version 0 (its topics), its assignment
 * ConsumerProtocolAssignment version 0 (the partitions it may own); the subscription's user data holds
 * what the protocol adds, in Millrace's layout version 0:
 * <pre>
 * version INT8 (0), epoch INT32, previous epoch INT32, assignment epoch INT32, regex STRING, assignor STRING,
 * rack STRING, left to return INT8, revoking PARTITIONS, target PARTITIONS
 * PARTITIONS => INT32 count, then count × (topic STRING, INT32 count, count × INT32)
 * STRING     => INT16 length (-1: null), UTF-8 bytes
 * </pre>
 */
final class ConsumerGroupSnapshot {

    private ConsumerGroupSnapshot() {
    }

    /** Whether a stored group is a consumer-protocol group's: protocol type "consumer", members and no leader. */
    static boolean isConsumerProtocol(GroupMetadataRecord record) {
        return SubscribedTopics.CONSUMER_PROTOCOL_TYPE.equals(record.protocolType()) && record.leader() == null
            && !record.members().isEmpty();
    }

    static GroupMetadataRecord.Member member(ConsumerGroupMember m, int assignmentEpoch, Set<TopicPartition> target,
                                             int sessionTimeoutMs) {
        Out state = new Out();
        state.int8(0);
        state.int32(m.epoch);
        state.int32(m.previousEpoch);
        state.int32(assignmentEpoch);
        state.string(m.topicRegex == null ? null : m.topicRegex.pattern());
        state.string(m.assignor);
        state.string(m.rackId);
        state.int8(m.leftToReturn ? 1 : 0);
        state.partitions(m.revoking);
        state.partitions(target);
        Out subscription = new Out();
        subscription.int16(0);
        subscription.int32(m.topicNames.size());
        m.topicNames.forEach(subscription::string);
        subscription.bytes(state.toArray());
        return new GroupMetadataRecord.Member(m.memberId, m.instanceId, m.clientId, m.clientHost, m.rebalanceTimeoutMs,
            sessionTimeoutMs, ByteBuffer.wrap(subscription.toArray()), ConsumerAssignmentBytes.of(m.assigned));
    }

    /** A stored member and its share of the target, with the group's assignment epoch. */
    record Restored(ConsumerGroupMember member, Set<TopicPartition> target, int assignmentEpoch) {
    }

    /** @throws IllegalArgumentException a member that does not parse */
    static Restored restore(GroupMetadataRecord.Member stored) {
        try {
            ByteBuffer sub = stored.subscription().duplicate();
            sub.getShort();
            List<String> topics = new ArrayList<>();
            for (int i = sub.getInt(); i > 0; i--) {
                topics.add(GroupMetadataRecord.getString(sub));
            }
            int length = sub.getInt();
            ByteBuffer state = sub.slice().limit(length);
            if (state.get() != 0) {
                throw new IllegalArgumentException("unknown layout of member " + stored.memberId());
            }
            ConsumerGroupMember m = new ConsumerGroupMember(stored.memberId(), stored.groupInstanceId(), stored.clientId(),
                stored.clientHost());
            m.topicNames = List.copyOf(topics);
            m.rebalanceTimeoutMs = stored.rebalanceTimeoutMs();
            m.epoch = state.getInt();
            m.previousEpoch = state.getInt();
            int assignmentEpoch = state.getInt();
            String regex = GroupMetadataRecord.getString(state);
            m.topicRegex = regex == null ? null : Pattern.compile(regex);
            m.assignor = GroupMetadataRecord.getString(state);
            m.rackId = GroupMetadataRecord.getString(state);
            m.leftToReturn = state.get() != 0;
            m.revoking.addAll(partitions(state));
            Set<TopicPartition> target = partitions(state);
            m.assigned.addAll(assignment(stored.assignment()));
            m.sent = Set.copyOf(m.assigned);
            return new Restored(m, target, assignmentEpoch);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unreadable member " + stored.memberId() + ": " + e, e);
        }
    }

    private static Set<TopicPartition> assignment(ByteBuffer bytes) {
        ByteBuffer in = bytes.duplicate();
        in.getShort();
        return partitions(in);
    }

    private static Set<TopicPartition> partitions(ByteBuffer in) {
        Set<TopicPartition> partitions = new HashSet<>();
        for (int t = in.getInt(); t > 0; t--) {
            String topic = GroupMetadataRecord.getString(in);
            for (int p = in.getInt(); p > 0; p--) {
                partitions.add(new TopicPartition(topic, in.getInt()));
            }
        }
        return partitions;
    }

    /** Big-endian output in Kafka's primitive encodings. */
    private static final class Out {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final DataOutputStream out = new DataOutputStream(bytes);

        void int8(int v) {
            run(() -> out.writeByte(v));
        }

        void int16(int v) {
            run(() -> out.writeShort(v));
        }

        void int32(int v) {
            run(() -> out.writeInt(v));
        }

        void string(String s) {
            if (s == null) {
                int16(-1);
                return;
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            int16(utf8.length);
            run(() -> out.write(utf8));
        }

        void bytes(byte[] b) {
            int32(b.length);
            run(() -> out.write(b));
        }

        void partitions(Set<TopicPartition> partitions) {
            Map<String, List<Integer>> byTopic = new TreeMap<>();
            partitions.forEach(tp -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
            int32(byTopic.size());
            byTopic.forEach((topic, list) -> {
                string(topic);
                int32(list.size());
                list.stream().sorted().forEach(this::int32);
            });
        }

        byte[] toArray() {
            return bytes.toByteArray();
        }

        private void run(IoAction action) {
            try {
                action.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }
}
