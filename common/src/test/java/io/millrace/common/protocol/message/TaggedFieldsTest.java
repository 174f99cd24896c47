package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.junit.Test;

/**
 * Kafka peers send tagged fields Millrace does not model; Millrace must skip them and read every
 * other field intact. Each case writes a message with Kafka, once with the tagged fields and once
 * without, and expects Millrace to parse both to the same record.
 */
public class TaggedFieldsTest {

    private static <T> void assertSkipped(Message withTags, Message withoutTags, short version,
                                          java.util.function.BiFunction<ByteBuffer, Short, T> parse) {
        ByteBuffer tagged = Wire.kafkaWrite(withTags, version);
        ByteBuffer plain = Wire.kafkaWrite(withoutTags, version);
        assertFalse("the sample must carry tagged fields", tagged.remaining() == plain.remaining());
        T fromTagged = parse.apply(tagged, version);
        assertFalse(tagged.hasRemaining());
        assertEquals(parse.apply(plain, version), fromTagged);
    }

    @Test
    public void fetchRequestClusterIdIsSkipped() {
        short v = 12;
        assertSkipped(KafkaSamples.fetchRequest(v).setClusterId("cluster-A"), KafkaSamples.fetchRequest(v), v, FetchRequest::parse);
    }

    @Test
    public void fetchResponseDivergingEpochCurrentLeaderAndSnapshotIdAreSkipped() {
        short v = 12;
        FetchResponseData tagged = KafkaSamples.fetchResponse(v);
        FetchResponseData.PartitionData p = tagged.responses().get(0).partitions().get(0);
        p.setDivergingEpoch(new FetchResponseData.EpochEndOffset().setEpoch(3).setEndOffset(77));
        p.setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch().setLeaderId(2).setLeaderEpoch(5));
        p.setSnapshotId(new FetchResponseData.SnapshotId().setEndOffset(10).setEpoch(1));
        assertSkipped(tagged, KafkaSamples.fetchResponse(v), v, FetchResponse::parse);
    }

    @Test
    public void produceResponseLeaderHintsAreSkipped() {
        for (short v = 10; v <= 11; v++) {
            ProduceResponseData tagged = KafkaSamples.produceResponse();
            tagged.responses().iterator().next().partitionResponses().get(1)
                .setCurrentLeader(new ProduceResponseData.LeaderIdAndEpoch().setLeaderId(2).setLeaderEpoch(9));
            ProduceResponseData.NodeEndpointCollection endpoints = new ProduceResponseData.NodeEndpointCollection();
            endpoints.add(new ProduceResponseData.NodeEndpoint().setNodeId(2).setHost("broker-2").setPort(9092).setRack("r"));
            tagged.setNodeEndpoints(endpoints);
            assertSkipped(tagged, KafkaSamples.produceResponse(), v, ProduceResponse::parse);
        }
    }

    @Test
    public void apiVersionsFeaturesAreSkipped() {
        for (short v = 3; v <= 4; v++) {
            ApiVersionsResponseData tagged = KafkaSamples.apiVersionsResponse();
            ApiVersionsResponseData.SupportedFeatureKeyCollection supported = new ApiVersionsResponseData.SupportedFeatureKeyCollection();
            supported.add(new ApiVersionsResponseData.SupportedFeatureKey().setName("metadata.version")
                .setMinVersion((short) 1).setMaxVersion((short) 27));
            ApiVersionsResponseData.FinalizedFeatureKeyCollection finalized = new ApiVersionsResponseData.FinalizedFeatureKeyCollection();
            finalized.add(new ApiVersionsResponseData.FinalizedFeatureKey().setName("metadata.version")
                .setMinVersionLevel((short) 27).setMaxVersionLevel((short) 27));
            tagged.setSupportedFeatures(supported).setFinalizedFeatures(finalized).setFinalizedFeaturesEpoch(12)
                .setZkMigrationReady(true);
            assertSkipped(tagged, KafkaSamples.apiVersionsResponse(), v, ApiVersionsResponse::parse);
        }
    }

    @Test
    public void createTopicsTopicConfigErrorCodeIsSkipped() {
        short v = 7;
        CreateTopicsResponseData tagged = KafkaSamples.createTopicsResponse();
        tagged.topics().find("dup").setTopicConfigErrorCode((short) 29);
        assertSkipped(tagged, KafkaSamples.createTopicsResponse(), v, CreateTopicsResponse::parse);
    }

    @Test
    public void kafkaSeesNoTaggedFieldsInWhatMillraceWrites() {
        FetchResponse ours = FetchResponse.parse(Wire.kafkaWrite(KafkaSamples.fetchResponse((short) 12), (short) 12), (short) 12);
        FetchResponseData kafka = new FetchResponseData(new ByteBufferAccessor(Wire.millraceWrite(ours, (short) 12)), (short) 12);
        FetchResponseData.PartitionData p = kafka.responses().get(0).partitions().get(0);
        assertEquals(-1, p.currentLeader().leaderId());
        assertEquals(-1, p.divergingEpoch().epoch());
        assertEquals(List.of(), kafka.unknownTaggedFields());
    }
}
