package io.millrace.broker.cluster;

/**
 * The producer ids {@code firstId} to {@code lastId}, both included, handed to broker
 * {@code brokerId} by {@link ZkCluster#allocateProducerIdBlock()}. No other block, on this broker
 * or another, before or after a restart, shares an id with it.
 */
public record ProducerIdBlock(int brokerId, long firstId, long lastId) {

    public ProducerIdBlock {
        if (firstId < 0 || lastId < firstId) {
            throw new IllegalArgumentException("Bad producer id block " + firstId + " to " + lastId);
        }
    }

    /** How many ids the block holds. */
    public long size() {
        return lastId - firstId + 1;
    }
}
