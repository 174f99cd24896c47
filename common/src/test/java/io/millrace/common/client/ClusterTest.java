package io.millrace.common.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.types.Uuids;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.Test;

public class ClusterTest {

    private static MetadataResponse.Partition partition(int index, int leader) {
        return new MetadataResponse.Partition((short) 0, index, leader, 0, List.of(leader), List.of(leader), List.of());
    }

    private static MetadataResponse.Topic topic(String name, Errors error, MetadataResponse.Partition... partitions) {
        return new MetadataResponse.Topic(error.code(), name, null, false, List.of(partitions), 0);
    }

    private static MetadataResponse response(List<MetadataResponse.Broker> brokers, MetadataResponse.Topic... topics) {
        return new MetadataResponse(0, brokers, "c", 0, List.of(topics), 0, (short) 0);
    }

    private static final List<MetadataResponse.Broker> TWO_BROKERS = List.of(
        new MetadataResponse.Broker(0, "h0", 9092, null), new MetadataResponse.Broker(1, "h1", 9093, null));

    @Test
    public void partitionsAreOrderedByNumberWhateverTheResponseOrder() {
        Cluster cluster = Cluster.empty().merge(response(TWO_BROKERS,
            topic("t", Errors.NONE, partition(2, 0), partition(0, 1), partition(1, 0))));
        assertEquals(3, cluster.partitionCount("t"));
        assertEquals(List.of(0, 1, 2), cluster.partitionsForTopic("t").stream().map(PartitionInfo::partition).toList());
        assertEquals(new Node(1, "h1", 9093), cluster.leaderFor(new TopicPartition("t", 0)));
        assertNull(cluster.leaderFor(new TopicPartition("t", 3)));
    }

    @Test
    public void theTopicIdIsTheLastDescribedOneAndGoesWithTheTopic() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        Cluster cluster = Cluster.empty().merge(response(TWO_BROKERS, withId(topic("t", Errors.NONE, partition(0, 0)), first)));
        assertEquals(first, cluster.topicId("t"));
        assertEquals(Uuids.ZERO, cluster.topicId("never-described"));
        Cluster recreated = cluster.merge(response(TWO_BROKERS, withId(topic("t", Errors.NONE, partition(0, 1)), second)));
        assertEquals(second, recreated.topicId("t"));
        Cluster deleted = recreated.merge(response(TWO_BROKERS, topic("t", Errors.UNKNOWN_TOPIC_OR_PARTITION)));
        assertEquals(Uuids.ZERO, deleted.topicId("t"));
        Cluster answeredById = deleted.merge(response(TWO_BROKERS, withId(topic(null, Errors.UNKNOWN_TOPIC_ID), first)));
        assertEquals("an answer about an id alone changes no named topic", Set.of(), answeredById.topics());
    }

    private static MetadataResponse.Topic withId(MetadataResponse.Topic topic, UUID id) {
        return new MetadataResponse.Topic(topic.errorCode(), topic.name(), id, false, topic.partitions(), 0);
    }

    @Test
    public void aLeaderNotAmongTheBrokersIsNoLeader() {
        Cluster cluster = Cluster.empty().merge(response(TWO_BROKERS, topic("t", Errors.NONE, partition(0, 7), partition(1, -1))));
        assertNull(cluster.leaderFor(new TopicPartition("t", 0)));
        assertNull(cluster.leaderFor(new TopicPartition("t", 1)));
    }

    @Test
    public void laterResponsesKeepOtherTopicsAndDropUnknownOnes() {
        Cluster first = Cluster.empty().merge(response(TWO_BROKERS,
            topic("a", Errors.NONE, partition(0, 0)), topic("b", Errors.NONE, partition(0, 1))));
        Cluster second = first.merge(response(List.of(TWO_BROKERS.get(0)),
            topic("b", Errors.UNKNOWN_TOPIC_OR_PARTITION)));
        assertEquals(1, second.partitionCount("a"));
        assertEquals(-1, second.partitionCount("b"));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, second.topicError("b"));
        assertEquals(1, second.nodes().size());
    }

    @Test
    public void aBrokerThatLeftLeavesItsPartitionsLeaderless() {
        Cluster first = Cluster.empty().merge(response(TWO_BROKERS, topic("a", Errors.NONE, partition(0, 1))));
        Cluster second = first.merge(response(List.of(TWO_BROKERS.get(0))));
        assertNull(second.leaderFor(new TopicPartition("a", 0)));
        assertEquals(1, second.partitionCount("a"));
    }
}
