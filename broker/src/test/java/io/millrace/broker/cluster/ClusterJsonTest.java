package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.broker.cluster.ClusterJson.MalformedZNodeException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class ClusterJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    public void writesTheDocumentedBrokerJsonWithAnExplicitNullRack() throws Exception {
        byte[] data = ClusterJson.broker(new BrokerInfo(3, "h", 9092, null, 1_700_000_000_000L));
        assertEquals(JSON.readTree("{\"version\":1,\"host\":\"h\",\"port\":9092,\"rack\":null,\"timestamp\":1700000000000}"),
            JSON.readTree(data));
        assertEquals(new BrokerInfo(3, "h", 9092, null, 1_700_000_000_000L), ClusterJson.parseBroker(3, data));
    }

    @Test
    public void writesTheDocumentedTopicJson() throws Exception {
        byte[] data = ClusterJson.topic(Map.of(1, List.of(0, 1), 0, List.of(2, 0)));
        assertEquals("{\"version\":1,\"partitions\":{\"0\":[2,0],\"1\":[0,1]}}", new String(data, StandardCharsets.UTF_8));
        assertEquals(Map.of(0, List.of(2, 0), 1, List.of(0, 1)), ClusterJson.parseTopic(data));
    }

    @Test
    public void writesAMovingPartitionsAddedAndRemovedReplicasBesideTheAssignment() throws Exception {
        Reassignment.Moving move = Reassignment.start(List.of(1, 2), List.of(3, 1));
        assertEquals(List.of(3, 1, 2), move.replicas());
        assertEquals(new Reassignment(List.of(3), List.of(2)), move.reassignment());
        byte[] data = ClusterJson.topic(Map.of(0, move.replicas(), 1, List.of(0, 1)), Map.of(0, move.reassignment()));
        assertEquals(JSON.readTree("{\"version\":1,\"partitions\":{\"0\":[3,1,2],\"1\":[0,1]},"
            + "\"adding_replicas\":{\"0\":[3]},\"removing_replicas\":{\"0\":[2]}}"), JSON.readTree(data));
        assertEquals(Map.of(0, List.of(3, 1, 2), 1, List.of(0, 1)), ClusterJson.parseTopic(data));
        Reassignment read = ClusterJson.parseReassignments(data).get(0);
        assertEquals(List.of(3, 1), read.target(List.of(3, 1, 2)));
        assertEquals(List.of(1, 2), read.original(List.of(3, 1, 2)));
        // a topic written before moves, or with none going on, has none
        assertEquals(Map.of(), ClusterJson.parseReassignments(ClusterJson.topic(Map.of(0, List.of(1)))));
    }

    @Test
    public void readsTheTopicJsonWrittenBeforeReplicationAsListsOfOne() {
        assertEquals(Map.of(0, List.of(2), 1, List.of(0)), ClusterJson.parseTopic(bytes("{\"version\":1,\"partitions\":{\"0\":2,\"1\":0}}")));
    }

    @Test
    public void writesTheDocumentedPartitionStateJsonAndReadsItBack() throws Exception {
        byte[] data = ClusterJson.partitionState(2, 7, List.of(2, 0));
        assertEquals(JSON.readTree("{\"version\":1,\"leader\":2,\"leader_epoch\":7,\"isr\":[2,0]}"), JSON.readTree(data));
        assertEquals(new LeaderAndIsr(2, 7, List.of(2, 0), 4), ClusterJson.parsePartitionState(data, 4));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parsePartitionState(bytes("{\"leader\":1,\"leader_epoch\":0}"), 0));
    }

    @Test
    public void roundTripsTopicConfigs() {
        Map<String, String> config = Map.of("retention.ms", "1000", "cleanup.policy", "delete");
        assertEquals(config, ClusterJson.parseTopicConfig(ClusterJson.topicConfig(config)));
    }

    @Test
    public void ignoresFieldsItDoesNotKnow() {
        byte[] data = "{\"version\":2,\"host\":\"h\",\"port\":1,\"rack\":\"r\",\"timestamp\":5,\"endpoints\":[\"x\"]}"
            .getBytes(StandardCharsets.UTF_8);
        assertEquals(new BrokerInfo(1, "h", 1, "r", 5), ClusterJson.parseBroker(1, data));
    }

    @Test
    public void refusesMalformedData() {
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseBroker(1, new byte[0]));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseBroker(1, bytes("{\"port\":1}")));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseBroker(1, bytes("{\"host\":\"h\",\"port\":70000}")));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseTopic(bytes("{\"partitions\":{\"zero\":1}}")));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseTopic(bytes("{\"version\":1}")));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseTopic(bytes("{\"partitions\":{\"0\":[]}}")));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseTopic(bytes("{\"partitions\":{\"0\":[1,1]}}")));
        assertThrows(MalformedZNodeException.class, () -> ClusterJson.parseTopicConfig(bytes("{\"config\":[1]}")));
    }

    @Test
    public void addsTheVerdictToARequestAndReadsItBack() {
        byte[] request = ClusterJson.createRequest(3, Map.of("a", "b"));
        AdminRequest pending = ClusterJson.parseRequest(AdminRequest.Kind.CREATE, "t", request, 10, 0);
        assertEquals(3, pending.partitions());
        assertEquals(Map.of("a", "b"), pending.config());
        assertNull(pending.error());

        byte[] rejected = ClusterJson.rejected(request, AdminError.TOPIC_ALREADY_EXISTS, "Topic 't' already exists");
        AdminRequest verdict = ClusterJson.parseRequest(AdminRequest.Kind.CREATE, "t", rejected, 10, 1);
        assertEquals("TOPIC_ALREADY_EXISTS", verdict.error());
        assertEquals("Topic 't' already exists", verdict.message());
        assertEquals(3, verdict.partitions());
    }

    @Test
    public void readsAnUnreadableRequestAsOneToReject() {
        AdminRequest junk = ClusterJson.parseRequest(AdminRequest.Kind.CREATE, "t", bytes("]"), 1, 0);
        assertEquals(0, junk.partitions());
        assertEquals("INVALID_PARTITIONS", ClusterJson.parseRequest(AdminRequest.Kind.CREATE, "t",
            ClusterJson.rejected(bytes("]"), AdminError.INVALID_PARTITIONS, "m"), 1, 1).error());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
