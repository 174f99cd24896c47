package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.UnsupportedVersionException;
import io.millrace.common.protocol.Wire;
import io.millrace.common.protocol.types.Uuids;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.junit.Test;

/** Meanings and rules that a field-by-field comparison does not show. */
public class MessageSemanticsTest {

    @Test
    public void aNullMetadataTopicArrayMeansAllTopicsInEveryVersion() {
        for (short v = ApiKey.METADATA.minVersion(); v <= ApiKey.METADATA.maxVersion(); v++) {
            MetadataRequestData all = new MetadataRequestData().setTopics(null).setAllowAutoTopicCreation(true);
            MetadataRequest ours = MetadataRequest.parse(Wire.kafkaWrite(all, v), v);
            assertTrue(ours.allTopics());
            MetadataRequestData back = new MetadataRequestData(new ByteBufferAccessor(Wire.millraceWrite(ours, v)), v);
            assertNull(back.topics());
        }
        MetadataRequest none = new MetadataRequest(List.of(), true, false, false);
        assertFalse(MetadataRequest.parse(Wire.millraceWrite(none, (short) 1), (short) 1).allTopics());
    }

    @Test
    public void aNullDescribeLogDirsTopicArrayMeansEveryPartitionInEveryVersion() {
        for (short v = ApiKey.DESCRIBE_LOG_DIRS.minVersion(); v <= ApiKey.DESCRIBE_LOG_DIRS.maxVersion(); v++) {
            DescribeLogDirsRequestData all = new DescribeLogDirsRequestData().setTopics(null);
            DescribeLogDirsRequest ours = DescribeLogDirsRequest.parse(Wire.kafkaWrite(all, v), v);
            assertTrue(ours.allTopics());
            assertNull(new DescribeLogDirsRequestData(new ByteBufferAccessor(Wire.millraceWrite(ours, v)), v).topics());
        }
        assertFalse(new DescribeLogDirsRequest(List.of()).allTopics());
    }

    @Test
    public void produceRecordsAreWritableSlicesOfTheRequestBuffer() {
        ByteBuffer bytes = Wire.kafkaWrite(KafkaSamples.produceRequest(), (short) 9);
        ProduceRequest.PartitionData partition = ProduceRequest.parse(bytes, (short) 9)
            .topicData().get(0).partitionData().get(0);
        ByteBuffer records = partition.records();
        assertFalse(records.isReadOnly());
        // the broker assigns offsets by rewriting the batch's base offset in place
        records.putLong(0, 12_345L);
        assertEquals(12_345L, bytes.getLong(records.arrayOffset()));
    }

    @Test
    public void aDeleteTopicsRefWithoutANameCannotBeWrittenBeforeVersionSix() {
        DeleteTopicsRequest byId = new DeleteTopicsRequest(List.of(new DeleteTopicsRequest.TopicRef(null, Uuids.ZERO)), 1000);
        assertThrows(IllegalArgumentException.class, () -> Wire.millraceWrite(byId, (short) 5));
    }

    @Test
    public void parsingOrWritingAnUnsupportedVersionIsRejected() {
        ByteBuffer empty = ByteBuffer.allocate(0);
        assertThrows(UnsupportedVersionException.class, () -> FetchRequest.parse(empty, (short) 13));
        assertThrows(UnsupportedVersionException.class, () -> ProduceResponse.parse(empty, (short) 2));
        InitProducerIdResponse response = new InitProducerIdResponse(0, (short) 0, 1, (short) 0);
        assertThrows(UnsupportedVersionException.class, () -> response.sizeInBytes((short) 6));
    }

    @Test
    public void theTransactionVersionsBeyondTheClientFormAndTransactionProtocolOneAreRejected() {
        ByteBuffer empty = ByteBuffer.allocate(0);
        assertThrows(UnsupportedVersionException.class, () -> AddPartitionsToTxnRequest.parse(empty, (short) 4));
        assertThrows(UnsupportedVersionException.class, () -> EndTxnRequest.parse(empty, (short) 5));
        assertThrows(UnsupportedVersionException.class, () -> TxnOffsetCommitRequest.parse(empty, (short) 5));
        assertThrows(UnsupportedVersionException.class, () -> WriteTxnMarkersRequest.parse(empty, (short) 0));
        assertThrows(UnsupportedVersionException.class, () -> WriteTxnMarkersRequest.parse(empty, (short) 2));
        EndTxnResponse response = new EndTxnResponse(0, (short) 0);
        assertThrows(UnsupportedVersionException.class, () -> response.sizeInBytes((short) 5));
    }

    @Test
    public void apiMessagesDispatchesEveryApiToItsParser() {
        for (ApiKey api : ApiKey.values()) {
            assertEquals(api, ApiMessages.parseRequest(api, requestBytes(api), api.minVersion()).apiKey());
        }
    }

    private static ByteBuffer requestBytes(ApiKey api) {
        short v = api.minVersion();
        return switch (api) {
            case PRODUCE -> Wire.kafkaWrite(KafkaSamples.produceRequest(), v);
            case FETCH -> Wire.kafkaWrite(KafkaSamples.fetchRequest(v), v);
            case LIST_OFFSETS -> Wire.kafkaWrite(KafkaSamples.listOffsetsRequest(v), v);
            case METADATA -> Wire.kafkaWrite(KafkaSamples.metadataRequest(v), v);
            case API_VERSIONS -> Wire.kafkaWrite(KafkaSamples.apiVersionsRequest(), v);
            case CREATE_TOPICS -> Wire.kafkaWrite(KafkaSamples.createTopicsRequest(), v);
            case DELETE_TOPICS -> Wire.kafkaWrite(KafkaSamples.deleteTopicsRequest(v), v);
            case INIT_PRODUCER_ID -> Wire.kafkaWrite(KafkaSamples.initProducerIdRequest(v), v);
            case DESCRIBE_CONFIGS -> Wire.kafkaWrite(KafkaSamples.describeConfigsRequest(v), v);
            case CREATE_PARTITIONS -> Wire.kafkaWrite(new CreatePartitionsRequestTest(v).kafkaSample(), v);
            case DELETE_RECORDS -> Wire.kafkaWrite(new DeleteRecordsRequestTest(v).kafkaSample(), v);
            case DESCRIBE_LOG_DIRS -> Wire.kafkaWrite(new DescribeLogDirsRequestTest(v).kafkaSample(), v);
            case ELECT_LEADERS -> Wire.kafkaWrite(new ElectLeadersRequestTest(v).kafkaSample(), v);
            case DESCRIBE_PRODUCERS -> Wire.kafkaWrite(new DescribeProducersRequestTest(v).kafkaSample(), v);
            case ALTER_PARTITION_REASSIGNMENTS -> Wire.kafkaWrite(new AlterPartitionReassignmentsRequestTest(v).kafkaSample(), v);
            case LIST_PARTITION_REASSIGNMENTS -> Wire.kafkaWrite(new ListPartitionReassignmentsRequestTest(v).kafkaSample(), v);
            case DESCRIBE_CLIENT_QUOTAS -> Wire.kafkaWrite(new DescribeClientQuotasRequestTest(v).kafkaSample(), v);
            case ALTER_CLIENT_QUOTAS -> Wire.kafkaWrite(new AlterClientQuotasRequestTest(v).kafkaSample(), v);
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> Wire.kafkaWrite(new DescribeUserScramCredentialsRequestTest(v).kafkaSample(), v);
            case ALTER_USER_SCRAM_CREDENTIALS -> Wire.kafkaWrite(new AlterUserScramCredentialsRequestTest(v).kafkaSample(), v);
            case LIST_TRANSACTIONS -> Wire.kafkaWrite(new ListTransactionsRequestTest(v).kafkaSample(), v);
            case DESCRIBE_ACLS -> Wire.kafkaWrite(new DescribeAclsRequestTest(v).kafkaSample(), v);
            case CREATE_ACLS -> Wire.kafkaWrite(new CreateAclsRequestTest(v).kafkaSample(), v);
            case DELETE_ACLS -> Wire.kafkaWrite(new DeleteAclsRequestTest(v).kafkaSample(), v);
            case OFFSET_FOR_LEADER_EPOCH -> Wire.kafkaWrite(new OffsetForLeaderEpochRequestTest(v).kafkaSample(), v);
            case OFFSET_COMMIT -> Wire.kafkaWrite(GroupSamples.offsetCommitRequest(v), v);
            case OFFSET_FETCH -> Wire.kafkaWrite(GroupSamples.offsetFetchRequest(v), v);
            case FIND_COORDINATOR -> Wire.kafkaWrite(GroupSamples.findCoordinatorRequest(v), v);
            case JOIN_GROUP -> Wire.kafkaWrite(GroupSamples.joinGroupRequest(v), v);
            case HEARTBEAT -> Wire.kafkaWrite(GroupSamples.heartbeatRequest(v), v);
            case LEAVE_GROUP -> Wire.kafkaWrite(GroupSamples.leaveGroupRequest(v), v);
            case SYNC_GROUP -> Wire.kafkaWrite(GroupSamples.syncGroupRequest(v), v);
            case DESCRIBE_GROUPS -> Wire.kafkaWrite(GroupSamples.describeGroupsRequest(v), v);
            case LIST_GROUPS -> Wire.kafkaWrite(GroupSamples.listGroupsRequest(v), v);
            case DELETE_GROUPS -> Wire.kafkaWrite(GroupSamples.deleteGroupsRequest(), v);
            case OFFSET_DELETE -> Wire.kafkaWrite(GroupSamples.offsetDeleteRequest(), v);
            case CONSUMER_GROUP_HEARTBEAT -> Wire.kafkaWrite(new ConsumerGroupHeartbeatRequestTest(v).kafkaSample(), v);
            case ALTER_CONFIGS -> Wire.kafkaWrite(ConfigSamples.alterConfigsRequest(), v);
            case INCREMENTAL_ALTER_CONFIGS -> Wire.kafkaWrite(ConfigSamples.incrementalAlterConfigsRequest(), v);
            case DESCRIBE_CLUSTER -> Wire.kafkaWrite(ConfigSamples.describeClusterRequest(v), v);
            case ADD_PARTITIONS_TO_TXN -> Wire.kafkaWrite(new AddPartitionsToTxnRequestTest(v).kafkaSample(), v);
            case ADD_OFFSETS_TO_TXN -> Wire.kafkaWrite(new AddOffsetsToTxnRequestTest(v).kafkaSample(), v);
            case END_TXN -> Wire.kafkaWrite(new EndTxnRequestTest(v).kafkaSample(), v);
            case WRITE_TXN_MARKERS -> Wire.kafkaWrite(new WriteTxnMarkersRequestTest(v).kafkaSample(), v);
            case TXN_OFFSET_COMMIT -> Wire.kafkaWrite(new TxnOffsetCommitRequestTest(v).kafkaSample(), v);
            case DESCRIBE_TRANSACTIONS -> Wire.kafkaWrite(new DescribeTransactionsRequestTest(v).kafkaSample(), v);
        };
    }

    @Test
    public void kafkaParsesAWholeRequestFrameThatMillraceWrites() {
        short v = 11;
        ApiMessage body = ProduceRequest.parse(Wire.kafkaWrite(KafkaSamples.produceRequest(), v), v);
        ByteBuffer frame = Frames.request(new RequestHeader(ApiKey.PRODUCE, v, 5, "producer-1"), body);
        assertEquals(frame.remaining() - 4, frame.getInt());
        org.apache.kafka.common.requests.RequestHeader header = org.apache.kafka.common.requests.RequestHeader.parse(frame);
        assertEquals(5, header.correlationId());
        org.apache.kafka.common.requests.ProduceRequest kafka = (org.apache.kafka.common.requests.ProduceRequest) AbstractRequest.parseRequest(header.apiKey(), header.apiVersion(),
            new ByteBufferAccessor(frame)).request;
        assertEquals(KafkaSamples.produceRequest(), kafka.data());
    }
}
