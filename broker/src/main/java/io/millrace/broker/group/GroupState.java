package io.millrace.broker.group;

/** The states of a group, as Kafka names them (and as DescribeGroups reports them). */
public enum GroupState {
    /** No members; committed offsets may remain. */
    EMPTY("Empty"),
    /** Waiting for every known member to rejoin, or for the rebalance timeout. */
    PREPARING_REBALANCE("PreparingRebalance"),
    /** A generation is formed; waiting for the leader's assignments. */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Every member has its assignment. */
    STABLE("Stable"),
    /** A consumer-protocol group whose members are still giving up or taking up partitions of a new assignment. */
    RECONCILING("Reconciling"),
    /** Removed; requests for it are answered as for an unknown group. */
    DEAD("Dead");

    private final String kafkaName;

    GroupState(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    public String kafkaName() {
        return kafkaName;
    }
}
