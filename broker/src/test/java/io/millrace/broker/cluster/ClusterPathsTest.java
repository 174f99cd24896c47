package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.Test;

public class ClusterPathsTest {

    @Test
    public void clientsLookForBrokersWhereBrokersRegister() {
        assertEquals(ClusterPaths.BROKER_IDS, io.millrace.common.client.BootstrapServers.BROKER_IDS_PATH);
    }

    @Test
    public void findsTheChildNameOnlyDirectlyUnderItsDirectory() {
        assertEquals("t", ClusterPaths.childOf(ClusterPaths.TOPICS, "/millrace/topics/t"));
        assertNull(ClusterPaths.childOf(ClusterPaths.TOPICS, "/millrace/topics"));
        assertNull(ClusterPaths.childOf(ClusterPaths.TOPICS, "/millrace/topics/t/x"));
        assertNull(ClusterPaths.childOf(ClusterPaths.TOPICS, "/millrace/topicsX/t"));
    }

    @Test
    public void findsThePartitionOfAStateZnodeAndNothingElse() {
        assertEquals(java.util.Optional.of(new io.millrace.common.TopicPartition("t", 3)),
            ClusterPaths.partitionOfState(ClusterPaths.partitionState("t", 3)));
        assertEquals("/millrace/topics/t/partitions/3/state", ClusterPaths.partitionState("t", 3));
        assertTrue(ClusterPaths.partitionOfState("/millrace/topics/t/partitions/3").isEmpty());
        assertTrue(ClusterPaths.partitionOfState("/millrace/topics/t/partitions/x/state").isEmpty());
        assertTrue(ClusterPaths.partitionOfState("/millrace/topics/t/other/3/state").isEmpty());
        assertTrue(ClusterPaths.partitionOfState("/millrace/config/topics/t/partitions/3/state").isEmpty());
    }

    @Test
    public void readsBrokerIdsFromRegistrationPaths() {
        assertEquals(OptionalInt.of(12), ClusterPaths.brokerIdOf(ClusterPaths.broker(12)));
        assertEquals(OptionalInt.empty(), ClusterPaths.brokerIdOf("/millrace/brokers/ids/abc"));
        assertEquals(OptionalInt.empty(), ClusterPaths.brokerIdOf(ClusterPaths.topic("1")));
    }

    @Test
    public void ordersLeaderLatchNodesBySequenceNotByTheirRandomPrefix() {
        assertEquals(7, ClusterPaths.latchSequence("_c_0b7a3c0e-8c4e-4b39-a1c1-5d1f0b3b1a2f-latch-0000000007"));
        assertEquals(-1, ClusterPaths.latchSequence("not-a-latch-node"));
    }

    @Test
    public void theCachedSubtreesHoldEveryMetadataPathAndNoneOfTheConsumersRegistries() {
        for (String metadata : List.of(ClusterPaths.BROKER_IDS + "/3", ClusterPaths.CONTROLLER, ClusterPaths.TOPICS + "/t",
                ClusterPaths.TOPIC_CONFIGS + "/t", ClusterPaths.CREATE_TOPIC_REQUESTS + "/t",
                ClusterPaths.DELETE_TOPIC_REQUESTS + "/t", ClusterPaths.CREATE_PARTITIONS_REQUESTS + "/t")) {
            assertTrue(metadata, cached(metadata));
        }
        assertFalse(cached(ClusterPaths.ROOT + "/consumers/g/offsets/t/0"));
        assertFalse(cached(ClusterPaths.ROOT + "/consumers/g/ids/c1"));
    }

    private static boolean cached(String path) {
        return ClusterPaths.METADATA_SUBTREES.stream().anyMatch(s -> path.equals(s) || path.startsWith(s + "/"));
    }
}
