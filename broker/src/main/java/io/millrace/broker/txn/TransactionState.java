package io.millrace.broker.txn;

/**
 * Where a transactional id's transaction stands, with Kafka's ids (kept in __transaction_state)
 * and names (shown by DescribeTransactions, ListTransactions and {@code kafka-transactions}).
 */
public enum TransactionState {
    /** No transaction open: the producer has its id and epoch and has added no partition yet. */
    EMPTY(0, "Empty"),
    /** Partitions added: records may be written to them. */
    ONGOING(1, "Ongoing"),
    /** Commit decided and durable; the markers are being written. */
    PREPARE_COMMIT(2, "PrepareCommit"),
    /** Abort decided and durable; the markers are being written. */
    PREPARE_ABORT(3, "PrepareAbort"),
    /** Every partition has its commit marker. */
    COMPLETE_COMMIT(4, "CompleteCommit"),
    /** Every partition has its abort marker. */
    COMPLETE_ABORT(5, "CompleteAbort"),
    /** The transactional id expired. */
    DEAD(6, "Dead"),
    /** A new producer instance fences the old one: its open transaction is being aborted. */
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence");

    private final byte id;
    private final String displayName;

    TransactionState(int id, String displayName) {
        this.id = (byte) id;
        this.displayName = displayName;
    }

    public byte id() {
        return id;
    }

    public String displayName() {
        return displayName;
    }

    /** Whether markers are being written: the transaction's outcome is decided but not yet everywhere. */
    public boolean isPreparing() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    /** Whether no transaction is open: a new one may begin. */
    public boolean isIdle() {
        return this == EMPTY || this == COMPLETE_COMMIT || this == COMPLETE_ABORT;
    }

    /** The state of this id. */
    public static TransactionState forId(byte id) {
        for (TransactionState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("Unknown transaction state " + id);
    }

    /** The state of this name, case-insensitively, or null. */
    public static TransactionState forName(String name) {
        for (TransactionState state : values()) {
            if (state.displayName.equalsIgnoreCase(name)) {
                return state;
            }
        }
        return null;
    }
}
