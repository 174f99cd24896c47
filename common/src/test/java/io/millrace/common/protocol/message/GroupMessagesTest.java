package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.GroupSamples.GROUP;
import static io.millrace.common.protocol.message.KafkaSamples.TOPIC;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.requests.AbstractRequest;
import org.junit.Test;

/** Meanings of the consumer-group messages that a field-by-field comparison does not show. */
public class GroupMessagesTest {

    private static final Set<ApiKey> GROUP_APIS = EnumSet.of(ApiKey.OFFSET_COMMIT, ApiKey.OFFSET_FETCH,
        ApiKey.FIND_COORDINATOR, ApiKey.JOIN_GROUP, ApiKey.HEARTBEAT, ApiKey.LEAVE_GROUP, ApiKey.SYNC_GROUP,
        ApiKey.DESCRIBE_GROUPS, ApiKey.LIST_GROUPS, ApiKey.DELETE_GROUPS, ApiKey.OFFSET_DELETE);

    @Test
    public void aConsumerSubscriptionAndAssignmentPassThroughUntouched() {
        ByteBuffer subscription = ConsumerProtocol.serializeSubscription(new ConsumerPartitionAssignor.Subscription(
            List.of(TOPIC, "other"), ByteBuffer.wrap(new byte[] {1, 2, 3}), List.of(new TopicPartition(TOPIC, 4))));
        short v = ApiKey.JOIN_GROUP.maxVersion();
        JoinGroupRequest join = new JoinGroupRequest(GROUP, 45_000, 300_000, "", null, ConsumerProtocol.PROTOCOL_TYPE,
            List.of(new JoinGroupRequest.Protocol("range", subscription.duplicate())), null);
        JoinGroupRequestData kafkaJoin = new JoinGroupRequestData(new ByteBufferAccessor(Wire.millraceWrite(join, v)), v);
        ConsumerPartitionAssignor.Subscription seen = ConsumerProtocol.deserializeSubscription(
            ByteBuffer.wrap(kafkaJoin.protocols().find("range").metadata()));
        assertEquals(List.of(TOPIC, "other"), seen.topics());
        assertEquals(List.of(new TopicPartition(TOPIC, 4)), seen.ownedPartitions());

        ByteBuffer assignment = ConsumerProtocol.serializeAssignment(new ConsumerPartitionAssignor.Assignment(
            List.of(new TopicPartition(TOPIC, 0), new TopicPartition("other", 2))));
        short sv = ApiKey.SYNC_GROUP.maxVersion();
        SyncGroupResponse sync = new SyncGroupResponse(0, (short) 0, "consumer", "range", assignment.duplicate());
        SyncGroupResponseData kafkaSync = new SyncGroupResponseData(new ByteBufferAccessor(Wire.millraceWrite(sync, sv)), sv);
        assertEquals(List.of(new TopicPartition(TOPIC, 0), new TopicPartition("other", 2)),
            ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(kafkaSync.assignment())).partitions());
    }

    @Test
    public void unknownTaggedFieldsOfNewerPeersAreSkippedAtEveryLevel() {
        short v = ApiKey.JOIN_GROUP.maxVersion();
        JoinGroupRequestData join = GroupSamples.joinGroupRequest(v);
        join.unknownTaggedFields().add(new RawTaggedField(5, new byte[] {9, 9}));
        join.protocols().find("range").unknownTaggedFields().add(new RawTaggedField(0, new byte[] {1}));
        assertSkipped(join, GroupSamples.joinGroupRequest(v), v, JoinGroupRequest::parse);

        short fv = ApiKey.OFFSET_FETCH.maxVersion();
        OffsetFetchRequestData fetch = GroupSamples.offsetFetchRequest(fv);
        fetch.groups().get(0).topics().get(0).unknownTaggedFields().add(new RawTaggedField(3, new byte[4]));
        assertSkipped(fetch, GroupSamples.offsetFetchRequest(fv), fv, OffsetFetchRequest::parse);

        short cv = ApiKey.FIND_COORDINATOR.maxVersion();
        FindCoordinatorResponseData found = GroupSamples.findCoordinatorResponse(cv);
        found.coordinators().get(1).unknownTaggedFields().add(new RawTaggedField(1, "hint".getBytes()));
        assertSkipped(found, GroupSamples.findCoordinatorResponse(cv), cv, FindCoordinatorResponse::parse);
    }

    private static <T> void assertSkipped(Message withTags, Message withoutTags, short version,
                                          BiFunction<ByteBuffer, Short, T> parse) {
        ByteBuffer tagged = Wire.kafkaWrite(withTags, version);
        ByteBuffer plain = Wire.kafkaWrite(withoutTags, version);
        assertNotEquals("the sample must carry tagged fields", plain.remaining(), tagged.remaining());
        T fromTagged = parse.apply(tagged, version);
        assertFalse(tagged.hasRemaining());
        assertEquals(parse.apply(plain, version), fromTagged);
    }

    @Test
    public void aNullTopicListAsksForEveryCommittedOffsetOfTheGroup() {
        for (short v = 2; v <= 7; v++) {
            OffsetFetchRequestData all = new OffsetFetchRequestData().setGroupId(GROUP).setTopics(null);
            OffsetFetchRequest ours = OffsetFetchRequest.parse(Wire.kafkaWrite(all, v), v);
            assertNull(ours.topics());
            assertNull(new OffsetFetchRequestData(new ByteBufferAccessor(Wire.millraceWrite(ours, v)), v).topics());
        }
        for (short v = 8; v <= ApiKey.OFFSET_FETCH.maxVersion(); v++) {
            OffsetFetchRequest ours = OffsetFetchRequest.parse(Wire.kafkaWrite(GroupSamples.offsetFetchRequest(v), v), v);
            assertNull(ours.groups().get(1).topics());
        }
        OffsetFetchRequest everything = new OffsetFetchRequest(GROUP, null, false, List.of());
        assertThrows(IllegalArgumentException.class, () -> everything.sizeInBytes((short) 1));
    }

    @Test
    public void findCoordinatorAsksForOneKeyUpToVersionThreeAndABatchFromFour() {
        FindCoordinatorRequest one = FindCoordinatorRequest.forGroup(GROUP);
        FindCoordinatorRequest batch = FindCoordinatorRequest.forGroups(List.of(GROUP, "second"));
        for (short v = 0; v <= ApiKey.FIND_COORDINATOR.maxVersion(); v++) {
            FindCoordinatorRequest sent = v < FindCoordinatorRequest.FIRST_BATCHED_VERSION ? one : batch;
            assertEquals(sent, FindCoordinatorRequest.parse(Wire.millraceWrite(sent, v), v));
        }
        FindCoordinatorResponse answer = FindCoordinatorResponse.batched(0, List.of(
            new FindCoordinatorResponse.Coordinator(GROUP, 1, "broker-1", 9092, (short) 0, null)));
        assertEquals(answer, FindCoordinatorResponse.parse(Wire.millraceWrite(answer, (short) 4), (short) 4));
    }

    @Test
    public void kafkaParsesWholeGroupRequestFramesThatMillraceWritesAtEveryVersion() {
        for (ApiKey api : ApiKey.values()) {
            for (short v = api.minVersion(); v <= api.maxVersion() && GROUP_APIS.contains(api); v++) {
                Message sample = kafkaRequest(api, v);
                ApiMessage body = ApiMessages.parseRequest(api, Wire.kafkaWrite(sample, v), v);
                if (body instanceof JoinGroupRequest join && v == 0) {
                    // Kafka's request object reads version 0 as Millrace's effective timeout does
                    ((JoinGroupRequestData) sample).setRebalanceTimeoutMs(join.effectiveRebalanceTimeoutMs());
                }
                ByteBuffer frame = Frames.request(new RequestHeader(api, v, 17, "group-client"), body);
                assertEquals(frame.remaining() - 4, frame.getInt());
                org.apache.kafka.common.requests.RequestHeader header = org.apache.kafka.common.requests.RequestHeader.parse(frame);
                assertEquals(api + " v" + v, 17, header.correlationId());
                AbstractRequest kafka = AbstractRequest.parseRequest(header.apiKey(), header.apiVersion(),
                    new ByteBufferAccessor(frame)).request;
                assertEquals(api + " v" + v, sample, kafka.data());
                assertFalse(frame.hasRemaining());
            }
        }
    }

    private static Message kafkaRequest(ApiKey api, short v) {
        return switch (api) {
            case OFFSET_COMMIT -> GroupSamples.offsetCommitRequest(v);
            case OFFSET_FETCH -> GroupSamples.offsetFetchRequest(v);
            case FIND_COORDINATOR -> GroupSamples.findCoordinatorRequest(v);
            case JOIN_GROUP -> GroupSamples.joinGroupRequest(v);
            case HEARTBEAT -> GroupSamples.heartbeatRequest(v);
            case LEAVE_GROUP -> GroupSamples.leaveGroupRequest(v);
            case SYNC_GROUP -> GroupSamples.syncGroupRequest(v);
            case DESCRIBE_GROUPS -> GroupSamples.describeGroupsRequest(v);
            case LIST_GROUPS -> GroupSamples.listGroupsRequest(v);
            case DELETE_GROUPS -> GroupSamples.deleteGroupsRequest();
            case OFFSET_DELETE -> GroupSamples.offsetDeleteRequest();
            default -> throw new IllegalArgumentException(api + " is not a group api");
        };
    }
}
