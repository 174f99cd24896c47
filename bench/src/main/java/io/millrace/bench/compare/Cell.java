package io.millrace.bench.compare;

import java.util.List;

/**
 * One cell of the comparison's matrix: which client talks to which broker. The order of the
 * constants is the order of the report's columns.
 */
enum Cell {
    MILLRACE_ON_MILLRACE(BenchClient.MILLRACE, BrokerComparison.MILLRACE),
    KAFKA_ON_MILLRACE(BenchClient.KAFKA, BrokerComparison.MILLRACE),
    MILLRACE_ON_KAFKA(BenchClient.MILLRACE, BrokerComparison.KAFKA),
    KAFKA_ON_KAFKA(BenchClient.KAFKA, BrokerComparison.KAFKA);

    final BenchClient client;
    final String broker;

    Cell(BenchClient client, String broker) {
        this.client = client;
        this.broker = broker;
    }

    /** The cell's key in results.json, e.g. {@code kafka-client/millrace-broker}. */
    String id() {
        return client.name + "-client/" + broker + "-broker";
    }

    String label() {
        return capitalized(client.name) + " client, " + capitalized(broker) + " broker";
    }

    static Cell of(BenchClient client, String broker) {
        for (Cell c : values()) {
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
