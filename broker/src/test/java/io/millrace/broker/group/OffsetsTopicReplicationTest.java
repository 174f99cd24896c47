package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** How many replicas {@code __consumer_offsets} gets from the brokers live and known, or 0 to wait. */
public class OffsetsTopicReplicationTest {

    @Test
    public void theFullFactorWhenEnoughBrokersAreLive() {
        assertEquals(3, OffsetsTopic.replicationFactorToCreate(3, 3, 3));
        assertEquals(3, OffsetsTopic.replicationFactorToCreate(3, 5, 5));
    }

    @Test
    public void aClusterKnownToHaveEnoughWaitsForTheBrokersThatAreDown() {
        assertEquals(0, OffsetsTopic.replicationFactorToCreate(3, 2, 3));
        assertEquals(0, OffsetsTopic.replicationFactorToCreate(3, 1, 6));
    }

    @Test
    public void aSmallerClusterGetsOneReplicaPerLiveBroker() {
        assertEquals(1, OffsetsTopic.replicationFactorToCreate(3, 1, 1));
        assertEquals(2, OffsetsTopic.replicationFactorToCreate(3, 2, 2));
    }

    @Test
    public void nothingWithoutALiveBroker() {
        assertEquals(0, OffsetsTopic.replicationFactorToCreate(1, 0, 0));
    }
}
