package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import java.util.List;

/**
 * A consumer group of Kafka's protocol as {@link GroupOffsets} shows it: its state, chosen assignor
 * and members, as its coordinator describes them (DescribeGroups), or Empty with no members when it
 * has none. {@code coordinator} is -1 when no broker was asked.
 */
public record KafkaGroupDescription(String groupId, String state, String protocol, int coordinator, List<Member> members) {

    public KafkaGroupDescription {
        members = List.copyOf(members);
    }

    /** One member and the partitions assigned to it. */
    public record Member(String memberId, String clientId, String host, List<TopicPartition> assignment) {

        public Member {
            assignment = List.copyOf(assignment);
        }

        /** How the describe output names the member: {@code memberId (clientId, host)}. */
        public String owner() {
            return memberId + " (" + clientId + ", " + host + ")";
        }
    }
}
