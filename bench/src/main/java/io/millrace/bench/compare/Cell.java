package io.millrace.bench.compare;

import java.util.List;

/**
 * One cell of the comparison's matrix: which client talks to which broker; and, for scenario 1 only,
 * Millrace's producer with the audit's producer tier on ({@link AuditedProducerScenario}), next to the
 * plain one. The order of the constants is the order of the report's columns.
 */
enum Cell {
    MILLRACE_ON_MILLRACE(BenchClient.MILLRACE, BrokerComparison.MILLRACE, false),
    KAFKA_ON_MILLRACE(BenchClient.KAFKA, BrokerComparison.MILLRACE, false),
    MILLRACE_ON_KAFKA(BenchClient.MILLRACE, BrokerComparison.KAFKA, false),
    KAFKA_ON_KAFKA(BenchClient.KAFKA, BrokerComparison.KAFKA, false),
    AUDITED_MILLRACE_ON_MILLRACE(BenchClient.MILLRACE, BrokerComparison.MILLRACE, true);

    final BenchClient client;
    final String broker;
    /** Whether every record is counted by the audit's producer tier (scenario 1 only). */
    final boolean audited;

    Cell(BenchClient client, String broker, boolean audited) {
        this.client = client;
        this.broker = broker;
        this.audited = audited;
    }

    /** The cell's key in results.json, e.g. {@code kafka-client/millrace-broker}. */
    String id() {
        return clientName() + "-client/" + broker + "-broker";
    }

    /** The client's name, {@code -audited} added when the audit counts. */
    String clientName() {
        return client.name + (audited ? "-audited" : "");
    }

    String label() {
        return capitalized(client.name) + " client" + (audited ? " audited" : "") + ", " + capitalized(broker) + " broker";
    }

    /** The cells of the client x broker matrix, in which every scenario runs. */
    static List<Cell> matrix() {
        return List.of(MILLRACE_ON_MILLRACE, KAFKA_ON_MILLRACE, MILLRACE_ON_KAFKA, KAFKA_ON_KAFKA);
    }

    static Cell of(BenchClient client, String broker) {
        for (Cell c : matrix()) {
            if (c.client == client && c.broker.equals(broker)) {
                return c;
            }
        }
        throw new IllegalArgumentException(client + " on " + broker);
    }

    /** The cells with Kafka's client: what the broker comparison and the scaling scenario fill. */
    static List<Cell> kafkaClient() {
        return List.of(KAFKA_ON_MILLRACE, KAFKA_ON_KAFKA);
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
