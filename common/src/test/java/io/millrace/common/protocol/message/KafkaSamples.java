package io.millrace.common.protocol.message;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * One message per API built with Kafka's generated classes, every field a version has set to a
 * value other than its default. Fields Kafka refuses to drop silently (non-ignorable ones) are set
 * only at the versions that have them. Strings include non-ASCII text to exercise UTF-8 lengths.
 */
final class KafkaSamples {

    static final String TOPIC = "clicks-été";
    static final Uuid TOPIC_ID = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ");

    private KafkaSamples() {
    }

    /** A real record batch v2 with two records. */
    static MemoryRecords records(long baseOffset) {
        return MemoryRecords.withRecords(baseOffset, Compression.NONE,
            new SimpleRecord(1_700_000_000_000L, "k1".getBytes(), "v1".getBytes()),
            new SimpleRecord(1_700_000_000_001L, null, "value two".getBytes()));
    }

    static ByteBuffer buffer(MemoryRecords records) {
        return records == null ? null : records.buffer().duplicate();
    }

    static UUID uuid(Uuid kafka) {
        return new UUID(kafka.getMostSignificantBits(), kafka.getLeastSignificantBits());
    }

    static Uuid kafkaUuid(UUID uuid) {
        return new Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    static ApiVersionsRequestData apiVersionsRequest() {
        return new ApiVersionsRequestData().setClientSoftwareName("millrace-test").setClientSoftwareVersion("0.1.0-ß");
    }

    static ApiVersionsResponseData apiVersionsResponse() {
        ApiVersionsResponseData.ApiVersionCollection keys = new ApiVersionsResponseData.ApiVersionCollection();
        keys.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 0).setMinVersion((short) 0).setMaxVersion((short) 11));
        keys.add(new ApiVersionsResponseData.ApiVersion().setApiKey((short) 18).setMinVersion((short) 0).setMaxVersion((short) 4));
        return new ApiVersionsResponseData().setErrorCode((short) 0).setApiKeys(keys).setThrottleTimeMs(25);
    }

    static MetadataRequestData metadataRequest(short version) {
        MetadataRequestData data = new MetadataRequestData().setTopics(List.of(
            new MetadataRequestData.MetadataRequestTopic().setName(TOPIC).setTopicId(TOPIC_ID),
            new MetadataRequestData.MetadataRequestTopic().setName("other")));
        data.setAllowAutoTopicCreation(version < 4);
        if (version >= 8) {
            data.setIncludeTopicAuthorizedOperations(true);
            data.setIncludeClusterAuthorizedOperations(version <= 10);
        }
        return data;
    }

    static MetadataResponseData metadataResponse(short version) {
        MetadataResponseData.MetadataResponseBrokerCollection brokers = new MetadataResponseData.MetadataResponseBrokerCollection();
        brokers.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(1).setHost("broker-1").setPort(9092).setRack("r1"));
        brokers.add(new MetadataResponseData.MetadataResponseBroker().setNodeId(2).setHost("broker-2").setPort(9093).setRack(null));
        MetadataResponseData.MetadataResponseTopic topic = new MetadataResponseData.MetadataResponseTopic()
            .setErrorCode((short) 0).setName(TOPIC).setTopicId(TOPIC_ID).setIsInternal(true)
            .setPartitions(List.of(
                new MetadataResponseData.MetadataResponsePartition().setErrorCode((short) 0).setPartitionIndex(0)
                    .setLeaderId(1).setLeaderEpoch(7).setReplicaNodes(List.of(1, 2)).setIsrNodes(List.of(1))
                    .setOfflineReplicas(List.of(2)),
                new MetadataResponseData.MetadataResponsePartition().setErrorCode((short) 5).setPartitionIndex(1)
                    .setLeaderId(-1).setReplicaNodes(List.of(2)).setIsrNodes(List.of())));
        MetadataResponseData.MetadataResponseTopic missing = new MetadataResponseData.MetadataResponseTopic()
            .setErrorCode((short) 3).setName("missing").setPartitions(List.of());
        if (version >= 8) {
            topic.setTopicAuthorizedOperations(0x0ff8);
        }
        MetadataResponseData.MetadataResponseTopicCollection topics = new MetadataResponseData.MetadataResponseTopicCollection();
        topics.add(topic);
        topics.add(missing);
        MetadataResponseData data = new MetadataResponseData().setThrottleTimeMs(3).setBrokers(brokers)
            .setClusterId("cluster-A").setControllerId(2).setTopics(topics).setErrorCode((short) 0);
        if (version >= 8 && version <= 10) {
            data.setClusterAuthorizedOperations(0x10);
        }
        return data;
    }

    static ProduceRequestData produceRequest() {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(TOPIC).setPartitionData(List.of(
            new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(records(0)),
            new ProduceRequestData.PartitionProduceData().setIndex(3).setRecords(records(0)))));
        topics.add(new ProduceRequestData.TopicProduceData().setName("other").setPartitionData(List.of(
            new ProduceRequestData.PartitionProduceData().setIndex(1).setRecords(null))));
        return new ProduceRequestData().setTransactionalId("txn-1").setAcks((short) -1).setTimeoutMs(30_000).setTopicData(topics);
    }

    static ProduceResponseData produceResponse() {
        ProduceResponseData.TopicProduceResponseCollection topics = new ProduceResponseData.TopicProduceResponseCollection();
        topics.add(new ProduceResponseData.TopicProduceResponse().setName(TOPIC).setPartitionResponses(List.of(
            new ProduceResponseData.PartitionProduceResponse().setIndex(0).setErrorCode((short) 0).setBaseOffset(42)
                .setLogAppendTimeMs(1_700_000_000_123L).setLogStartOffset(10),
            new ProduceResponseData.PartitionProduceResponse().setIndex(3).setErrorCode((short) 87).setBaseOffset(-1)
                .setLogStartOffset(-1).setErrorMessage("bad batch").setRecordErrors(List.of(
                    new ProduceResponseData.BatchIndexAndErrorMessage().setBatchIndex(1).setBatchIndexErrorMessage("no key"),
                    new ProduceResponseData.BatchIndexAndErrorMessage().setBatchIndex(4).setBatchIndexErrorMessage(null))))));
        return new ProduceResponseData().setResponses(topics).setThrottleTimeMs(12);
    }

    static FetchRequestData fetchRequest(short version) {
        FetchRequestData data = new FetchRequestData().setReplicaId(-1).setMaxWaitMs(500).setMinBytes(1).setMaxBytes(52_428_800)
            .setIsolationLevel((byte) 1).setSessionId(77).setSessionEpoch(3).setRackId("rack-a")
            .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(TOPIC).setPartitions(List.of(
                new FetchRequestData.FetchPartition().setPartition(0).setCurrentLeaderEpoch(4).setFetchOffset(1234)
                    .setLogStartOffset(5).setPartitionMaxBytes(1_048_576),
                new FetchRequestData.FetchPartition().setPartition(2).setFetchOffset(0).setPartitionMaxBytes(65_536)))));
        if (version >= 7) {
            data.setForgottenTopicsData(List.of(new FetchRequestData.ForgottenTopic().setTopic("gone").setPartitions(List.of(1, 2))));
        }
        if (version >= 12) {
            data.topics().get(0).partitions().get(0).setLastFetchedEpoch(3);
        }
        return data;
    }

    static FetchResponseData fetchResponse(short version) {
        FetchResponseData.PartitionData first = new FetchResponseData.PartitionData().setPartitionIndex(0).setErrorCode((short) 0)
            .setHighWatermark(100).setLastStableOffset(90).setLogStartOffset(0)
            .setAbortedTransactions(List.of(new FetchResponseData.AbortedTransaction().setProducerId(9).setFirstOffset(50)))
            .setRecords(records(40));
        FetchResponseData.PartitionData second = new FetchResponseData.PartitionData().setPartitionIndex(2).setErrorCode((short) 1)
            .setHighWatermark(-1).setLastStableOffset(-1).setAbortedTransactions(null).setRecords(MemoryRecords.EMPTY);
        FetchResponseData.PartitionData third = new FetchResponseData.PartitionData().setPartitionIndex(5)
            .setHighWatermark(7).setAbortedTransactions(null).setRecords(records(5));
        if (version >= 11) {
            third.setPreferredReadReplica(2);
        }
        FetchResponseData data = new FetchResponseData().setThrottleTimeMs(1).setErrorCode((short) 0).setResponses(List.of(
            new FetchResponseData.FetchableTopicResponse().setTopic(TOPIC).setPartitions(List.of(first, second)),
            new FetchResponseData.FetchableTopicResponse().setTopic("other").setPartitions(List.of(third))));
        if (version >= 7) {
            data.setSessionId(123);
        }
        return data;
    }

    static ListOffsetsRequestData listOffsetsRequest(short version) {
        ListOffsetsRequestData data = new ListOffsetsRequestData().setReplicaId(-1).setTopics(List.of(
            new ListOffsetsRequestData.ListOffsetsTopic().setName(TOPIC).setPartitions(List.of(
                new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setCurrentLeaderEpoch(3).setTimestamp(-2),
                new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(1).setTimestamp(1_700_000_000_000L)))));
        if (version >= 2) {
            data.setIsolationLevel((byte) 1);
        }
        return data;
    }

    static ListOffsetsResponseData listOffsetsResponse(short version) {
        ListOffsetsResponseData.ListOffsetsPartitionResponse first = new ListOffsetsResponseData.ListOffsetsPartitionResponse()
            .setPartitionIndex(0).setErrorCode((short) 0).setTimestamp(-1).setOffset(1234);
        ListOffsetsResponseData.ListOffsetsPartitionResponse second = new ListOffsetsResponseData.ListOffsetsPartitionResponse()
            .setPartitionIndex(1).setErrorCode((short) 6).setTimestamp(1_700_000_000_000L).setOffset(-1);
        if (version >= 4) {
            first.setLeaderEpoch(9);
        }
        return new ListOffsetsResponseData().setThrottleTimeMs(4).setTopics(List.of(
            new ListOffsetsResponseData.ListOffsetsTopicResponse().setName(TOPIC).setPartitions(List.of(first, second))));
    }

    static CreateTopicsRequestData createTopicsRequest() {
        CreateTopicsRequestData.CreatableReplicaAssignmentCollection assignments =
            new CreateTopicsRequestData.CreatableReplicaAssignmentCollection();
        assignments.add(new CreateTopicsRequestData.CreatableReplicaAssignment().setPartitionIndex(0).setBrokerIds(List.of(1, 2)));
        assignments.add(new CreateTopicsRequestData.CreatableReplicaAssignment().setPartitionIndex(1).setBrokerIds(List.of(2, 1)));
        CreateTopicsRequestData.CreatableTopicConfigCollection configs = new CreateTopicsRequestData.CreatableTopicConfigCollection();
        configs.add(new CreateTopicsRequestData.CreatableTopicConfig().setName("retention.ms").setValue("86400000"));
        configs.add(new CreateTopicsRequestData.CreatableTopicConfig().setName("cleanup.policy").setValue(null));
        CreateTopicsRequestData.CreatableTopicCollection topics = new CreateTopicsRequestData.CreatableTopicCollection();
        topics.add(new CreateTopicsRequestData.CreatableTopic().setName(TOPIC).setNumPartitions(-1).setReplicationFactor((short) -1)
            .setAssignments(assignments).setConfigs(configs));
        topics.add(new CreateTopicsRequestData.CreatableTopic().setName("plain").setNumPartitions(8).setReplicationFactor((short) 1));
        return new CreateTopicsRequestData().setTopics(topics).setTimeoutMs(15_000).setValidateOnly(true);
    }

    static CreateTopicsResponseData createTopicsResponse() {
        CreateTopicsResponseData.CreatableTopicResultCollection topics = new CreateTopicsResponseData.CreatableTopicResultCollection();
        topics.add(new CreateTopicsResponseData.CreatableTopicResult().setName(TOPIC).setTopicId(TOPIC_ID).setErrorCode((short) 0)
            .setErrorMessage(null).setNumPartitions(2).setReplicationFactor((short) 1).setConfigs(List.of(
                new CreateTopicsResponseData.CreatableTopicConfigs().setName("retention.ms").setValue("86400000")
                    .setReadOnly(false).setConfigSource((byte) 1).setIsSensitive(false),
                new CreateTopicsResponseData.CreatableTopicConfigs().setName("secret").setValue(null)
                    .setReadOnly(true).setConfigSource((byte) 5).setIsSensitive(true))));
        topics.add(new CreateTopicsResponseData.CreatableTopicResult().setName("dup").setErrorCode((short) 36)
            .setErrorMessage("Topic 'dup' already exists.").setConfigs(null));
        return new CreateTopicsResponseData().setThrottleTimeMs(8).setTopics(topics);
    }

    static DeleteTopicsRequestData deleteTopicsRequest(short version) {
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(20_000);
        if (version >= 6) {
            data.setTopics(List.of(new DeleteTopicsRequestData.DeleteTopicState().setName(TOPIC),
                new DeleteTopicsRequestData.DeleteTopicState().setName(null).setTopicId(TOPIC_ID)));
        } else {
            data.setTopicNames(List.of(TOPIC, "other"));
        }
        return data;
    }

    static DeleteTopicsResponseData deleteTopicsResponse(short version) {
        DeleteTopicsResponseData.DeletableTopicResultCollection results = new DeleteTopicsResponseData.DeletableTopicResultCollection();
        results.add(new DeleteTopicsResponseData.DeletableTopicResult().setName(TOPIC).setErrorCode((short) 0));
        results.add(new DeleteTopicsResponseData.DeletableTopicResult().setName("other").setTopicId(TOPIC_ID)
            .setErrorCode((short) 3).setErrorMessage("no such topic"));
        return new DeleteTopicsResponseData().setThrottleTimeMs(2).setResponses(results);
    }

    static org.apache.kafka.common.message.DescribeConfigsRequestData describeConfigsRequest(short version) {
        return new org.apache.kafka.common.message.DescribeConfigsRequestData()
            .setResources(List.of(
                new org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource()
                    .setResourceType((byte) 2).setResourceName(TOPIC).setConfigurationKeys(List.of("retention.ms", "segment.ms")),
                new org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource()
                    .setResourceType((byte) 4).setResourceName("1").setConfigurationKeys(null)))
            .setIncludeSynonyms(true)
            .setIncludeDocumentation(version >= 3);
    }

    static org.apache.kafka.common.message.DescribeConfigsResponseData describeConfigsResponse(short version) {
        var entry = new org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult()
            .setName("retention.ms").setValue("86400000").setReadOnly(true).setConfigSource((byte) 1).setIsSensitive(true)
            .setSynonyms(List.of(
                new org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym()
                    .setName("retention.ms").setValue("86400000").setSource((byte) 1),
                new org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym()
                    .setName("log.retention.ms").setValue(null).setSource((byte) 5)));
        if (version >= 3) {
            entry.setConfigType((byte) 5).setDocumentation("How long a segment is kept.");
        }
        var unset = new org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult()
            .setName("segment.ms").setValue(null).setConfigSource((byte) 5).setSynonyms(List.of()).setDocumentation(null);
        return new org.apache.kafka.common.message.DescribeConfigsResponseData().setThrottleTimeMs(7).setResults(List.of(
            new org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult()
                .setErrorCode((short) 0).setErrorMessage(null).setResourceType((byte) 2).setResourceName(TOPIC)
                .setConfigs(List.of(entry, unset)),
            new org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult()
                .setErrorCode((short) 42).setErrorMessage("not described").setResourceType((byte) 4).setResourceName("1")
                .setConfigs(List.of())));
    }

    static InitProducerIdRequestData initProducerIdRequest(short version) {
        InitProducerIdRequestData data = new InitProducerIdRequestData().setTransactionalId(null).setTransactionTimeoutMs(60_000);
        if (version >= 3) {
            data.setProducerId(4000).setProducerEpoch((short) 2);
        }
        return data;
    }

    static InitProducerIdResponseData initProducerIdResponse() {
        return new InitProducerIdResponseData().setThrottleTimeMs(0).setErrorCode((short) 0).setProducerId(1L << 40)
            .setProducerEpoch((short) 0);
    }
}
