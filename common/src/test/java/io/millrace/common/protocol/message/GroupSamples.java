package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.TOPIC;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;

/**
 * Samples of the consumer-group APIs built with Kafka's generated classes, in the manner of
 * {@link KafkaSamples}: every field a version has is set to a value other than its default, and
 * fields Kafka refuses to drop silently are set only at the versions that have them.
 */
final class GroupSamples {

    static final String GROUP = "billing-cônsumers";
    static final String MEMBER = "consumer-1-5b0c2f6e";
    static final String INSTANCE = "host-7";

    private GroupSamples() {
    }

    /** Opaque protocol bytes (a subscription or an assignment) as Kafka's classes hold them. */
    static byte[] opaque(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static ByteBuffer wrap(byte[] bytes) {
        return bytes == null ? null : ByteBuffer.wrap(bytes);
    }

    static HeartbeatRequestData heartbeatRequest(short version) {
        HeartbeatRequestData data = new HeartbeatRequestData().setGroupId(GROUP).setGenerationId(12).setMemberId(MEMBER);
        if (version >= 3) {
            data.setGroupInstanceId(INSTANCE);
        }
        return data;
    }

    static HeartbeatResponseData heartbeatResponse() {
        return new HeartbeatResponseData().setThrottleTimeMs(5).setErrorCode((short) 27);
    }

    static FindCoordinatorRequestData findCoordinatorRequest(short version) {
        FindCoordinatorRequestData data = new FindCoordinatorRequestData();
        if (version >= 1) {
            data.setKeyType((byte) 1);
        }
        return version >= 4 ? data.setCoordinatorKeys(List.of(GROUP, "txn-été", "")) : data.setKey(GROUP);
    }

    static FindCoordinatorResponseData findCoordinatorResponse(short version) {
        FindCoordinatorResponseData data = new FindCoordinatorResponseData().setThrottleTimeMs(9);
        if (version >= 4) {
            return data.setCoordinators(List.of(
                new FindCoordinatorResponseData.Coordinator().setKey(GROUP).setNodeId(2).setHost("broker-2").setPort(9093)
                    .setErrorCode((short) 0).setErrorMessage(null),
                new FindCoordinatorResponseData.Coordinator().setKey("elsewhere").setNodeId(-1).setHost("").setPort(-1)
                    .setErrorCode((short) 15).setErrorMessage("The coordinator is not available.")));
        }
        data.setErrorCode((short) 0).setNodeId(3).setHost("bröker-3").setPort(9094);
        return version >= 1 ? data.setErrorMessage("none at all") : data;
    }

    static LeaveGroupRequestData leaveGroupRequest(short version) {
        LeaveGroupRequestData data = new LeaveGroupRequestData().setGroupId(GROUP);
        if (version < 3) {
            return data.setMemberId(MEMBER);
        }
        LeaveGroupRequestData.MemberIdentity dynamic = new LeaveGroupRequestData.MemberIdentity().setMemberId(MEMBER);
        LeaveGroupRequestData.MemberIdentity byInstance = new LeaveGroupRequestData.MemberIdentity().setMemberId("")
            .setGroupInstanceId(INSTANCE);
        if (version >= 5) {
            dynamic.setReason("the consumer is being closed");
        }
        return data.setMembers(List.of(dynamic, byInstance));
    }

    static LeaveGroupResponseData leaveGroupResponse(short version) {
        LeaveGroupResponseData data = new LeaveGroupResponseData().setThrottleTimeMs(4).setErrorCode((short) 0);
        if (version >= 3) {
            data.setMembers(List.of(
                new LeaveGroupResponseData.MemberResponse().setMemberId(MEMBER).setGroupInstanceId(null).setErrorCode((short) 0),
                new LeaveGroupResponseData.MemberResponse().setMemberId("").setGroupInstanceId(INSTANCE)
                    .setErrorCode((short) 25)));
        }
        return data;
    }

    static SyncGroupRequestData syncGroupRequest(short version) {
        SyncGroupRequestData data = new SyncGroupRequestData().setGroupId(GROUP).setGenerationId(7).setMemberId(MEMBER)
            .setAssignments(List.of(
                new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId(MEMBER).setAssignment(opaque("p0,p1")),
                new SyncGroupRequestData.SyncGroupRequestAssignment().setMemberId("other").setAssignment(new byte[0])));
        if (version >= 3) {
            data.setGroupInstanceId(INSTANCE);
        }
        if (version >= 5) {
            data.setProtocolType("consumer").setProtocolName("range");
        }
        return data;
    }

    static SyncGroupResponseData syncGroupResponse(short version) {
        SyncGroupResponseData data = new SyncGroupResponseData().setThrottleTimeMs(3).setErrorCode((short) 0)
            .setAssignment(opaque("assignment-ü"));
        if (version >= 5) {
            data.setProtocolType("consumer").setProtocolName("cooperative-sticky");
        }
        return data;
    }

    static JoinGroupRequestData joinGroupRequest(short version) {
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
            new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(opaque("sub:" + TOPIC)));
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("cooperative-sticky").setMetadata(new byte[0]));
        JoinGroupRequestData data = new JoinGroupRequestData().setGroupId(GROUP).setSessionTimeoutMs(45_000)
            .setMemberId(MEMBER).setProtocolType("consumer").setProtocols(protocols);
        if (version >= 1) {
            data.setRebalanceTimeoutMs(300_000);
        }
        if (version >= 5) {
            data.setGroupInstanceId(INSTANCE);
        }
        if (version >= 8) {
            data.setReason("rebalance after a new subscription");
        }
        return data;
    }

    static JoinGroupResponseData joinGroupResponse(short version) {
        JoinGroupResponseData.JoinGroupResponseMember leader = new JoinGroupResponseData.JoinGroupResponseMember()
            .setMemberId(MEMBER).setMetadata(opaque("sub:" + TOPIC));
        JoinGroupResponseData.JoinGroupResponseMember follower = new JoinGroupResponseData.JoinGroupResponseMember()
            .setMemberId("consumer-2").setMetadata(new byte[0]);
        if (version >= 5) {
            leader.setGroupInstanceId(INSTANCE);
        }
        JoinGroupResponseData data = new JoinGroupResponseData().setThrottleTimeMs(2).setErrorCode((short) 0)
            .setGenerationId(8).setProtocolName("range").setLeader(MEMBER).setMemberId(MEMBER)
            .setMembers(List.of(leader, follower));
        if (version >= 7) {
            data.setProtocolType("consumer");
        }
        if (version >= 9) {
            data.setSkipAssignment(true);
        }
        return data;
    }

    static OffsetCommitRequestData offsetCommitRequest(short version) {
        OffsetCommitRequestData.OffsetCommitRequestPartition first = new OffsetCommitRequestData.OffsetCommitRequestPartition()
            .setPartitionIndex(0).setCommittedOffset(1_234).setCommittedMetadata("checkpoint-ä");
        OffsetCommitRequestData.OffsetCommitRequestPartition second = new OffsetCommitRequestData.OffsetCommitRequestPartition()
            .setPartitionIndex(5).setCommittedOffset(1L << 40).setCommittedMetadata(null);
        if (version >= 6) {
            first.setCommittedLeaderEpoch(3);
        }
        OffsetCommitRequestData data = new OffsetCommitRequestData().setGroupId(GROUP).setGenerationIdOrMemberEpoch(11)
            .setMemberId(MEMBER).setTopics(List.of(
                new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(TOPIC).setPartitions(List.of(first, second)),
                new OffsetCommitRequestData.OffsetCommitRequestTopic().setName("other").setPartitions(List.of())));
        if (version <= 4) {
            data.setRetentionTimeMs(86_400_000L);
        }
        if (version >= 7) {
            data.setGroupInstanceId(INSTANCE);
        }
        return data;
    }

    static OffsetCommitResponseData offsetCommitResponse() {
        return new OffsetCommitResponseData().setThrottleTimeMs(6).setTopics(List.of(
            new OffsetCommitResponseData.OffsetCommitResponseTopic().setName(TOPIC).setPartitions(List.of(
                new OffsetCommitResponseData.OffsetCommitResponsePartition().setPartitionIndex(0).setErrorCode((short) 0),
                new OffsetCommitResponseData.OffsetCommitResponsePartition().setPartitionIndex(5).setErrorCode((short) 22)))));
    }

    static OffsetFetchRequestData offsetFetchRequest(short version) {
        List<OffsetFetchRequestData.OffsetFetchRequestTopic> topics = List.of(
            new OffsetFetchRequestData.OffsetFetchRequestTopic().setName(TOPIC).setPartitionIndexes(List.of(0, 5)),
            new OffsetFetchRequestData.OffsetFetchRequestTopic().setName("other").setPartitionIndexes(List.of()));
        OffsetFetchRequestData data = new OffsetFetchRequestData().setRequireStable(version >= 7);
        if (version < 8) {
            return data.setGroupId(GROUP).setTopics(topics);
        }
        List<OffsetFetchRequestData.OffsetFetchRequestTopics> batched = List.of(
            new OffsetFetchRequestData.OffsetFetchRequestTopics().setName(TOPIC).setPartitionIndexes(List.of(0, 5)));
        OffsetFetchRequestData.OffsetFetchRequestGroup member = new OffsetFetchRequestData.OffsetFetchRequestGroup()
            .setGroupId(GROUP).setTopics(batched);
        if (version >= 9) {
            member.setMemberId(MEMBER).setMemberEpoch(4);
        }
        return data.setGroups(List.of(member,
            new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("admin-view").setTopics(null)));
    }

    static OffsetFetchResponseData offsetFetchResponse(short version) {
        OffsetFetchResponseData.OffsetFetchResponsePartition first = new OffsetFetchResponseData.OffsetFetchResponsePartition()
            .setPartitionIndex(0).setCommittedOffset(1_234).setMetadata("checkpoint-ä").setErrorCode((short) 0);
        OffsetFetchResponseData.OffsetFetchResponsePartition second = new OffsetFetchResponseData.OffsetFetchResponsePartition()
            .setPartitionIndex(5).setCommittedOffset(-1).setMetadata(null).setErrorCode((short) 3);
        if (version >= 5) {
            first.setCommittedLeaderEpoch(3);
        }
        OffsetFetchResponseData data = new OffsetFetchResponseData().setThrottleTimeMs(7);
        if (version < 8) {
            return data.setTopics(List.of(new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(TOPIC)
                .setPartitions(List.of(first, second)))).setErrorCode(version >= 2 ? (short) 14 : 0);
        }
        return data.setGroups(List.of(
            new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(GROUP).setErrorCode((short) 0).setTopics(List.of(
                new OffsetFetchResponseData.OffsetFetchResponseTopics().setName(TOPIC).setPartitions(List.of(
                    new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(0).setCommittedOffset(1_234)
                        .setCommittedLeaderEpoch(3).setMetadata("checkpoint-ä").setErrorCode((short) 0),
                    new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(5).setCommittedOffset(-1)
                        .setMetadata(null).setErrorCode((short) 3))))),
            new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId("elsewhere").setErrorCode((short) 16)
                .setTopics(List.of())));
    }

    static ListGroupsRequestData listGroupsRequest(short version) {
        ListGroupsRequestData data = new ListGroupsRequestData();
        if (version >= 4) {
            data.setStatesFilter(List.of("Stable", "PreparingRebalance"));
        }
        if (version >= 5) {
            data.setTypesFilter(List.of("classic"));
        }
        return data;
    }

    static ListGroupsResponseData listGroupsResponse(short version) {
        ListGroupsResponseData.ListedGroup consumers = new ListGroupsResponseData.ListedGroup().setGroupId(GROUP)
            .setProtocolType("consumer");
        ListGroupsResponseData.ListedGroup connect = new ListGroupsResponseData.ListedGroup().setGroupId("connect-cluster")
            .setProtocolType("connect");
        if (version >= 4) {
            consumers.setGroupState("Stable");
            connect.setGroupState("Empty");
        }
        if (version >= 5) {
            consumers.setGroupType("classic");
            connect.setGroupType("classic");
        }
        return new ListGroupsResponseData().setThrottleTimeMs(1).setErrorCode((short) 0).setGroups(List.of(consumers, connect));
    }

    static DescribeGroupsRequestData describeGroupsRequest(short version) {
        return new DescribeGroupsRequestData().setGroups(List.of(GROUP, "missing"))
            .setIncludeAuthorizedOperations(version >= 3);
    }

    static DescribeGroupsResponseData describeGroupsResponse(short version) {
        DescribeGroupsResponseData.DescribedGroupMember member = new DescribeGroupsResponseData.DescribedGroupMember()
            .setMemberId(MEMBER).setClientId("consumer-1").setClientHost("/10.0.0.7")
            .setMemberMetadata(opaque("sub:" + TOPIC)).setMemberAssignment(opaque("p0,p1"));
        if (version >= 4) {
            member.setGroupInstanceId(INSTANCE);
        }
        DescribeGroupsResponseData.DescribedGroup stable = new DescribeGroupsResponseData.DescribedGroup()
            .setErrorCode((short) 0).setGroupId(GROUP).setGroupState("Stable").setProtocolType("consumer")
            .setProtocolData("range").setMembers(List.of(member, new DescribeGroupsResponseData.DescribedGroupMember()
                .setMemberId("consumer-2").setClientId("").setClientHost("/10.0.0.8")
                .setMemberMetadata(new byte[0]).setMemberAssignment(new byte[0])));
        DescribeGroupsResponseData.DescribedGroup dead = new DescribeGroupsResponseData.DescribedGroup()
            .setErrorCode((short) 69).setGroupId("missing").setGroupState("Dead").setProtocolType("").setProtocolData("")
            .setMembers(List.of());
        if (version >= 3) {
            stable.setAuthorizedOperations(0x0f00);
        }
        if (version >= 6) {
            dead.setErrorMessage("Group missing not found.");
        }
        return new DescribeGroupsResponseData().setThrottleTimeMs(8).setGroups(List.of(stable, dead));
    }

    static DeleteGroupsRequestData deleteGroupsRequest() {
        return new DeleteGroupsRequestData().setGroupsNames(List.of(GROUP, "old-group"));
    }

    static DeleteGroupsResponseData deleteGroupsResponse() {
        DeleteGroupsResponseData.DeletableGroupResultCollection results = new DeleteGroupsResponseData.DeletableGroupResultCollection();
        results.add(new DeleteGroupsResponseData.DeletableGroupResult().setGroupId(GROUP).setErrorCode((short) 68));
        results.add(new DeleteGroupsResponseData.DeletableGroupResult().setGroupId("old-group").setErrorCode((short) 0));
        return new DeleteGroupsResponseData().setThrottleTimeMs(2).setResults(results);
    }

    static OffsetDeleteRequestData offsetDeleteRequest() {
        OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection topics =
            new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection();
        topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName(TOPIC).setPartitions(List.of(
            new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0),
            new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(5))));
        topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName("other").setPartitions(List.of()));
        return new OffsetDeleteRequestData().setGroupId(GROUP).setTopics(topics);
    }

    static OffsetDeleteResponseData offsetDeleteResponse() {
        OffsetDeleteResponseData.OffsetDeleteResponsePartitionCollection partitions =
            new OffsetDeleteResponseData.OffsetDeleteResponsePartitionCollection();
        partitions.add(new OffsetDeleteResponseData.OffsetDeleteResponsePartition().setPartitionIndex(0).setErrorCode((short) 0));
        partitions.add(new OffsetDeleteResponseData.OffsetDeleteResponsePartition().setPartitionIndex(5).setErrorCode((short) 86));
        OffsetDeleteResponseData.OffsetDeleteResponseTopicCollection topics =
            new OffsetDeleteResponseData.OffsetDeleteResponseTopicCollection();
        topics.add(new OffsetDeleteResponseData.OffsetDeleteResponseTopic().setName(TOPIC).setPartitions(partitions));
        return new OffsetDeleteResponseData().setErrorCode((short) 0).setThrottleTimeMs(3).setTopics(topics);
    }
}
