package io.millrace.bench.compare;

import java.util.List;

/** The order in which a round of the comparison runs its brokers, the clients on each, and a cell's producers. */
final class RunOrder {

    private RunOrder() {
    }

    /**
     * Which broker goes first in a round: A B, then B A, and so on, so that whatever the machine
     * does early in a round (a cold page cache, the previous run's writeback) does not always
     * land on the same side.
     */
    static List<String> brokers(int run) {
        return Math.floorMod(run, 2) == 1 ? List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA)
            : List.of(BrokerComparison.KAFKA, BrokerComparison.MILLRACE);
    }

    /** On each broker the clients take turns going first the same way. */
    static List<BenchClient> clients(int run) {
        return Math.floorMod(run, 2) == 1 ? List.of(BenchClient.MILLRACE, BenchClient.KAFKA)
            : List.of(BenchClient.KAFKA, BenchClient.MILLRACE);
    }

    /**
     * The producers scenario 1 runs in {@code cell}: with Millrace's client on Millrace's broker, the
     * audited one next to the plain one, the plain one first in odd rounds.
     */
    static List<Cell> producers(Cell cell, int run) {
        if (cell != Cell.MILLRACE_ON_MILLRACE) {
            return List.of(cell);
        }
        return Math.floorMod(run, 2) == 1 ? List.of(cell, Cell.AUDITED_MILLRACE_ON_MILLRACE)
            : List.of(Cell.AUDITED_MILLRACE_ON_MILLRACE, cell);
    }
}
