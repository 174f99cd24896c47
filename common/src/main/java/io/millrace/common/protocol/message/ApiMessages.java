package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import java.nio.ByteBuffer;

/**
 * Parses a body by api key, for code that learns the api from a header: the broker's request
 * decoder, a client's response decoder. The broker's handling stays elsewhere, with one handler
 * per api key.
 */
public final class ApiMessages {

    private ApiMessages() {
    }

    /**
     * Parses a request body of {@code version}.
     *
     * @throws io.millrace.common.protocol.InvalidRequestException for malformed bytes, and its
     *     subclass UnsupportedVersionException for a version Millrace does not parse
     */
    public static ApiMessage parseRequest(ApiKey api, ByteBuffer buffer, short version) {
        return switch (api) {
            case PRODUCE -> ProduceRequest.parse(buffer, version);
            case FETCH -> FetchRequest.parse(buffer, version);
            case LIST_OFFSETS -> ListOffsetsRequest.parse(buffer, version);
            case METADATA -> MetadataRequest.parse(buffer, version);
            case API_VERSIONS -> ApiVersionsRequest.parse(buffer, version);
            case CREATE_TOPICS -> CreateTopicsRequest.parse(buffer, version);
            case DELETE_TOPICS -> DeleteTopicsRequest.parse(buffer, version);
            case INIT_PRODUCER_ID -> InitProducerIdRequest.parse(buffer, version);
            case DESCRIBE_CONFIGS -> DescribeConfigsRequest.parse(buffer, version);
            case CREATE_PARTITIONS -> CreatePartitionsRequest.parse(buffer, version);
            case DELETE_RECORDS -> DeleteRecordsRequest.parse(buffer, version);
            case DESCRIBE_LOG_DIRS -> DescribeLogDirsRequest.parse(buffer, version);
            case ELECT_LEADERS -> ElectLeadersRequest.parse(buffer, version);
            case DESCRIBE_PRODUCERS -> DescribeProducersRequest.parse(buffer, version);
            case ALTER_PARTITION_REASSIGNMENTS -> AlterPartitionReassignmentsRequest.parse(buffer, version);
            case LIST_PARTITION_REASSIGNMENTS -> ListPartitionReassignmentsRequest.parse(buffer, version);
            case DESCRIBE_CLIENT_QUOTAS -> DescribeClientQuotasRequest.parse(buffer, version);
            case ALTER_CLIENT_QUOTAS -> AlterClientQuotasRequest.parse(buffer, version);
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> DescribeUserScramCredentialsRequest.parse(buffer, version);
            case ALTER_USER_SCRAM_CREDENTIALS -> AlterUserScramCredentialsRequest.parse(buffer, version);
            case LIST_TRANSACTIONS -> ListTransactionsRequest.parse(buffer, version);
            case DESCRIBE_ACLS -> DescribeAclsRequest.parse(buffer, version);
            case CREATE_ACLS -> CreateAclsRequest.parse(buffer, version);
            case DELETE_ACLS -> DeleteAclsRequest.parse(buffer, version);
            case OFFSET_FOR_LEADER_EPOCH -> OffsetForLeaderEpochRequest.parse(buffer, version);
            case OFFSET_COMMIT -> OffsetCommitRequest.parse(buffer, version);
            case OFFSET_FETCH -> OffsetFetchRequest.parse(buffer, version);
            case FIND_COORDINATOR -> FindCoordinatorRequest.parse(buffer, version);
            case JOIN_GROUP -> JoinGroupRequest.parse(buffer, version);
            case HEARTBEAT -> HeartbeatRequest.parse(buffer, version);
            case LEAVE_GROUP -> LeaveGroupRequest.parse(buffer, version);
            case SYNC_GROUP -> SyncGroupRequest.parse(buffer, version);
            case DESCRIBE_GROUPS -> DescribeGroupsRequest.parse(buffer, version);
            case LIST_GROUPS -> ListGroupsRequest.parse(buffer, version);
            case DELETE_GROUPS -> DeleteGroupsRequest.parse(buffer, version);
            case OFFSET_DELETE -> OffsetDeleteRequest.parse(buffer, version);
            case CONSUMER_GROUP_HEARTBEAT -> ConsumerGroupHeartbeatRequest.parse(buffer, version);
            case ALTER_CONFIGS -> AlterConfigsRequest.parse(buffer, version);
            case INCREMENTAL_ALTER_CONFIGS -> IncrementalAlterConfigsRequest.parse(buffer, version);
            case DESCRIBE_CLUSTER -> DescribeClusterRequest.parse(buffer, version);
            case ADD_PARTITIONS_TO_TXN -> AddPartitionsToTxnRequest.parse(buffer, version);
            case ADD_OFFSETS_TO_TXN -> AddOffsetsToTxnRequest.parse(buffer, version);
            case END_TXN -> EndTxnRequest.parse(buffer, version);
            case WRITE_TXN_MARKERS -> WriteTxnMarkersRequest.parse(buffer, version);
            case TXN_OFFSET_COMMIT -> TxnOffsetCommitRequest.parse(buffer, version);
            case DESCRIBE_TRANSACTIONS -> DescribeTransactionsRequest.parse(buffer, version);
        };
    }

    /** Parses a response body of {@code version}; throws as {@link #parseRequest} does. */
    public static ApiMessage parseResponse(ApiKey api, ByteBuffer buffer, short version) {
        return switch (api) {
            case PRODUCE -> ProduceResponse.parse(buffer, version);
            case FETCH -> FetchResponse.parse(buffer, version);
            case LIST_OFFSETS -> ListOffsetsResponse.parse(buffer, version);
            case METADATA -> MetadataResponse.parse(buffer, version);
            case API_VERSIONS -> ApiVersionsResponse.parse(buffer, version);
            case CREATE_TOPICS -> CreateTopicsResponse.parse(buffer, version);
            case DELETE_TOPICS -> DeleteTopicsResponse.parse(buffer, version);
            case INIT_PRODUCER_ID -> InitProducerIdResponse.parse(buffer, version);
            case DESCRIBE_CONFIGS -> DescribeConfigsResponse.parse(buffer, version);
            case CREATE_PARTITIONS -> CreatePartitionsResponse.parse(buffer, version);
            case DELETE_RECORDS -> DeleteRecordsResponse.parse(buffer, version);
            case DESCRIBE_LOG_DIRS -> DescribeLogDirsResponse.parse(buffer, version);
            case ELECT_LEADERS -> ElectLeadersResponse.parse(buffer, version);
            case DESCRIBE_PRODUCERS -> DescribeProducersResponse.parse(buffer, version);
            case ALTER_PARTITION_REASSIGNMENTS -> AlterPartitionReassignmentsResponse.parse(buffer, version);
            case LIST_PARTITION_REASSIGNMENTS -> ListPartitionReassignmentsResponse.parse(buffer, version);
            case DESCRIBE_CLIENT_QUOTAS -> DescribeClientQuotasResponse.parse(buffer, version);
            case ALTER_CLIENT_QUOTAS -> AlterClientQuotasResponse.parse(buffer, version);
            case DESCRIBE_USER_SCRAM_CREDENTIALS -> DescribeUserScramCredentialsResponse.parse(buffer, version);
            case ALTER_USER_SCRAM_CREDENTIALS -> AlterUserScramCredentialsResponse.parse(buffer, version);
            case LIST_TRANSACTIONS -> ListTransactionsResponse.parse(buffer, version);
            case DESCRIBE_ACLS -> DescribeAclsResponse.parse(buffer, version);
            case CREATE_ACLS -> CreateAclsResponse.parse(buffer, version);
            case DELETE_ACLS -> DeleteAclsResponse.parse(buffer, version);
            case OFFSET_FOR_LEADER_EPOCH -> OffsetForLeaderEpochResponse.parse(buffer, version);
            case OFFSET_COMMIT -> OffsetCommitResponse.parse(buffer, version);
            case OFFSET_FETCH -> OffsetFetchResponse.parse(buffer, version);
            case FIND_COORDINATOR -> FindCoordinatorResponse.parse(buffer, version);
            case JOIN_GROUP -> JoinGroupResponse.parse(buffer, version);
            case HEARTBEAT -> HeartbeatResponse.parse(buffer, version);
            case LEAVE_GROUP -> LeaveGroupResponse.parse(buffer, version);
            case SYNC_GROUP -> SyncGroupResponse.parse(buffer, version);
            case DESCRIBE_GROUPS -> DescribeGroupsResponse.parse(buffer, version);
            case LIST_GROUPS -> ListGroupsResponse.parse(buffer, version);
            case DELETE_GROUPS -> DeleteGroupsResponse.parse(buffer, version);
            case OFFSET_DELETE -> OffsetDeleteResponse.parse(buffer, version);
            case CONSUMER_GROUP_HEARTBEAT -> ConsumerGroupHeartbeatResponse.parse(buffer, version);
            case ALTER_CONFIGS -> AlterConfigsResponse.parse(buffer, version);
            case INCREMENTAL_ALTER_CONFIGS -> IncrementalAlterConfigsResponse.parse(buffer, version);
            case DESCRIBE_CLUSTER -> DescribeClusterResponse.parse(buffer, version);
            case ADD_PARTITIONS_TO_TXN -> AddPartitionsToTxnResponse.parse(buffer, version);
            case ADD_OFFSETS_TO_TXN -> AddOffsetsToTxnResponse.parse(buffer, version);
            case END_TXN -> EndTxnResponse.parse(buffer, version);
            case WRITE_TXN_MARKERS -> WriteTxnMarkersResponse.parse(buffer, version);
            case TXN_OFFSET_COMMIT -> TxnOffsetCommitResponse.parse(buffer, version);
            case DESCRIBE_TRANSACTIONS -> DescribeTransactionsResponse.parse(buffer, version);
        };
    }
}
