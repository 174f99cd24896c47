package io.millrace.examples.generator;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditingProducer;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.common.utils.Time;
import io.millrace.producer.Callback;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import io.millrace.schemaregistry.serde.AvroSerializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * One simulated front-end host: an {@link AvroEventProducer} of its own that stamps its name into every
 * event header, and, with auditing on, the producer tier's count of what it sent, published by an
 * {@link AuditPublisher} of its own under its name ({@code audit.host}), as a real front-end's would be.
 * Closing sends what is queued, waits for every answer, then publishes the last counts.
 */
final class FrontEndHost implements AutoCloseable {

    static final String PRODUCER_TIER = "producer";

    private final String name;
    private final AuditPublisher publisher;   // null without auditing
    private final Producer<String, SpecificRecord> producer;

    private FrontEndHost(String name, AuditPublisher publisher, Producer<String, SpecificRecord> producer) {
        this.name = name;
        this.publisher = publisher;
        this.producer = producer;
    }

    /** Starts host {@code name}'s producer, and its audit publisher when the options ask for auditing. */
    static FrontEndHost start(String name, GeneratorOptions options) {
        AuditPublisher publisher = options.audit() ? new AuditPublisher(auditSettings(name, options)).start() : null;
        try {
            Producer<String, SpecificRecord> plain = new MillraceProducer<>(producerSettings(name, options),
                new StringSerializer(), new AvroSerializer<>());
            Producer<String, SpecificRecord> counted = publisher == null ? plain
                : new AuditingProducer<>(plain, publisher.counter());
            EventHeaders stampedHere = new EventHeaders(Time.SYSTEM, name);
            return new FrontEndHost(name, publisher, new AvroEventProducer<>(counted, stampedHere));
        } catch (RuntimeException e) {
            if (publisher != null) {
                publisher.close();
            }
            throw e;
        }
    }

    /**
     * The data producer's settings: the brokers, the registry, schemas registered on first use, a client id
     * per host (so that each host's metrics are its own), and the given properties that are not the audit's.
     */
    static Map<String, Object> producerSettings(String name, GeneratorOptions options) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(AvroSerdeConfig.AUTO_REGISTER_SCHEMAS_CONFIG, "true");
        options.producerProperties().forEach((key, value) -> {
            if (AuditConfig.CONFIG.key(key) == null) {
                settings.put(key, value);
            }
        });
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        settings.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, options.schemaRegistryUrl());
        settings.put(CommonClientConfigs.CLIENT_ID_CONFIG, settings.getOrDefault(CommonClientConfigs.CLIENT_ID_CONFIG,
            options.application()) + "-" + name);
        return settings;
    }

    /**
     * The audit publisher's settings: the producer tier of the options' cluster and application on this host,
     * the given properties (the {@code audit.*} ones and the producer settings its own producer shares), and a
     * client id of its own.
     */
    static Map<String, Object> auditSettings(String name, GeneratorOptions options) {
        Map<String, Object> settings = new HashMap<>(options.producerProperties());
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        settings.put(AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, options.schemaRegistryUrl());
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, PRODUCER_TIER);
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, options.cluster());
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, options.application());
        settings.put(AuditConfig.AUDIT_HOST_CONFIG, name);
        Object dataClientId = producerSettings(name, options).get(CommonClientConfigs.CLIENT_ID_CONFIG);
        settings.put(CommonClientConfigs.CLIENT_ID_CONFIG, dataClientId + "-audit");
        return settings;
    }

    String name() {
        return name;
    }

    /** Sends {@code event} to its topic; see {@link Producer#send(ProducerRecord, Callback)}. */
    void send(FrontEndTraffic.Event event, Callback callback) {
        producer.send(new ProducerRecord<>(event.topic().topic(), event.key(), event.value()), callback);
    }

    @Override
    public void close() {
        try {
            producer.close();
        } finally {
            if (publisher != null) {
                publisher.close();
            }
        }
    }
}
