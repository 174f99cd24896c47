package io.millrace.bench.compare;

import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditingProducer;
import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.bench.compare.Scenarios.ProducerMode;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.util.Map;

/**
 * Scenario 1 with the audit's producer tier on: Millrace's producer wrapped in {@link AuditingProducer},
 * counting every acknowledged record per topic and window, and an {@link AuditPublisher} publishing the
 * counts to the audit topic of the same broker, through a schema registry on the broker's ZooKeeper in
 * this JVM. One publisher serves every run, as one serves a front-end for its whole life: a publisher's
 * first round makes sure of the audit topic, registers the audit schema and fetches metadata, which a
 * publisher started for each run paid inside the timing of runs of a second or two (at batch 1, a fifth of
 * the run); the warm-up round pays it here.
 *
 * <p>The windows are 1 s long with no lateness and the publisher runs every {@value #PUBLISH_INTERVAL_MS} ms,
 * so that it makes and sends audit records while the producer runs; with the defaults (10-minute windows,
 * a round every 10 s) a run of a few seconds would publish only when closed, outside the timing. This
 * costs the producer more than a front-end with the defaults pays.
 */
final class AuditedProducerScenario implements AutoCloseable {

    static final long WINDOW_MS = 1_000;
    static final long PUBLISH_INTERVAL_MS = 250;

    private final String bootstrap;
    private final SchemaRegistryServer registry;
    private final AuditPublisher publisher;

    private AuditedProducerScenario(String bootstrap, SchemaRegistryServer registry) {
        this.bootstrap = bootstrap;
        this.registry = registry;
        this.publisher = new AuditPublisher(settings(bootstrap, registry)).start();
    }

    /** Starts the schema registry the publisher needs, on {@code broker}'s ZooKeeper, and the publisher. */
    static AuditedProducerScenario start(MillraceBroker broker) throws Exception {
        return new AuditedProducerScenario(broker.bootstrapServers(), SchemaRegistryServer.startLocal(broker.zookeeperConnect()));
    }

    /**
     * Sends {@code count} records to {@code topic} as {@link MillraceClients#produce} does, with every
     * record counted; fails when the publisher has dropped audit records.
     */
    Measurement produce(String topic, ProducerMode mode, long count) throws Exception {
        Measurement m = MillraceClients.produce(bootstrap, topic, mode, count, p -> new AuditingProducer<>(p, publisher.counter()));
        if (publisher.getDroppedRecords() > 0) {
            throw new IllegalStateException("Audited " + mode.label + ": " + publisher.getDroppedRecords() + " audit records dropped");
        }
        return m;
    }

    private static Map<String, Object> settings(String bootstrap, SchemaRegistryServer registry) {
        return Map.of("bootstrap.servers", bootstrap, "schema.registry.url", registry.urls().get(0),
            "audit.tier", "producer", "audit.cluster", "bench", "audit.application", "bench-producer",
            "audit.window.ms", WINDOW_MS, "audit.lateness.ms", 0L, "audit.publish.interval.ms", PUBLISH_INTERVAL_MS);
    }

    /** Closes the publisher, which publishes what is left, and fails if it never published or dropped anything. */
    @Override
    public void close() {
        try {
            publisher.close();
            if (publisher.getDroppedRecords() > 0 || publisher.getPublishedRecords() == 0) {
                throw new IllegalStateException("The audited producer's publisher published " + publisher.getPublishedRecords()
                    + " audit records and dropped " + publisher.getDroppedRecords());
            }
        } finally {
            registry.close();
        }
    }
}
