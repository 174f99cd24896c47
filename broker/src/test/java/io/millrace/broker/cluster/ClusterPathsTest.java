package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

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
}
