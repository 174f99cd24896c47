package io.millrace.mirror;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.config.ConfigException;
import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live-to-offline mirror (the paper's embedded consumers in the offline data centre): for every
 * live cluster, {@code num.streams} mirror threads, each an embedded group consumer of that cluster,
 * all writing through one producer into the offline cluster. Several mirror processes with the same
 * group ids split the partitions and take over from one another (the group consumer's Algorithm 1).
 *
 * <p>The producer writes with {@code acks=all} and retries until {@code delivery.timeout.ms}. It is
 * idempotent (the default) and keeps up to {@code max.in.flight.requests.per.connection} requests in
 * flight, 5 by default: the offline broker appends a partition's batches only in their sequence order,
 * so what it holds of them is always a prefix of what was sent, retries included. With
 * {@code enable.idempotence=false} it keeps one request in flight, so that a retry never reorders a
 * partition. A record the offline cluster refuses for good stops the producer at once, so that nothing
 * queued behind it is sent (Kafka MirrorMaker's {@code abort.on.send.failure}); the batches already in
 * flight behind it are refused for the gap it leaves. The whole mirror stops. Records keep their
 * topic, partition (by default), key, value, headers and CreateTime.
 */
public final class MirrorMaker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MirrorMaker.class);

    private final MillraceProducer<byte[], byte[]> producer;
    private final TargetTopics targets;
    private final PartitionReader offlineReader;
    private final AuditPublisher audit;   // null: audit.enabled=false
    private final List<MirrorStream> streams = new ArrayList<>();
    private final MirrorCounters counters = new MirrorCounters();

    public MirrorMaker(MirrorMakerConfig config, List<SourceCluster> sources, Map<String, ?> producerSettings) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("Give at least one live cluster to mirror");
        }
        Map<String, Object> settings = new HashMap<>(producerSettings);
        Object offlineRegistry = settings.remove(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        ProducerConfig offline = new ProducerConfig(settings);
        if (!offline.idempotence()) {
            settings.put(ProducerConfig.MAX_IN_FLIGHT_CONFIG, 1);
        }
        this.producer = new MillraceProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
        this.targets = new TargetTopics(offline, config);
        this.offlineReader = new PartitionReader(new ConsumerConfig(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
            settings.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG))));
        this.audit = config.auditEnabled() ? auditPublisher(config, producerSettings, offlineRegistry) : null;
        long windowMs = audit == null ? 0 : new AuditConfig(auditSettings(config, producerSettings, offlineRegistry)).windowMs();
        for (SourceCluster source : sources) {
            SchemaCopier schemas = schemaCopier(source, offlineRegistry);
            for (int i = 0; i < config.numStreams(); i++) {
                MirrorAudit streamAudit = audit == null ? null : new MirrorAudit(audit, source.name(), windowMs);
                streams.add(new MirrorStream(source, i, config, producer, targets, schemas, counters,
                    () -> producer.close(Duration.ZERO), offlineReader, streamAudit));
            }
        }
    }

    /**
     * The settings of the mirror's audit publisher: the offline cluster's producer settings and registry,
     * the audit.* settings given to the mirror, and defaults naming the mirror.
     */
    private static Map<String, Object> auditSettings(MirrorMakerConfig config, Map<String, ?> producerSettings,
                                                     Object offlineRegistry) {
        Map<String, Object> settings = new HashMap<>(producerSettings);
        settings.put(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, offlineRegistry);
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, MirrorAudit.OFFLINE_TIER);
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "offline");
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, "mirror-maker");
        settings.putAll(config.auditSettings());
        return settings;
    }

    private static AuditPublisher auditPublisher(MirrorMakerConfig config, Map<String, ?> producerSettings,
                                                 Object offlineRegistry) {
        if (offlineRegistry == null || offlineRegistry.toString().isBlank()) {
            throw new ConfigException(MirrorMakerConfig.AUDIT_ENABLED_CONFIG + " needs the offline registry in the producer "
                + "config (" + SourceCluster.SCHEMA_REGISTRY_URL_CONFIG + "): the audit records are Avro");
        }
        return new AuditPublisher(auditSettings(config, producerSettings, offlineRegistry));
    }

    /** A copier of the live cluster's schemas when it names a registry; the offline registry must then be named too. */
    private SchemaCopier schemaCopier(SourceCluster source, Object offlineRegistry) {
        if (source.schemaRegistryUrl() == null) {
            return null;
        }
        if (offlineRegistry == null || offlineRegistry.toString().isBlank()) {
            throw new ConfigException("Live cluster " + source.name() + " names a schema registry, so the producer config "
                + "must name the offline one (" + SourceCluster.SCHEMA_REGISTRY_URL_CONFIG + "): records would not decode offline");
        }
        return new SchemaCopier(source.name(),
            new SchemaRegistryClient(Map.of(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, source.schemaRegistryUrl())),
            new SchemaRegistryClient(Map.of(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, offlineRegistry.toString())), counters);
    }

    public void start() {
        counters.register();
        if (audit != null) {
            audit.start();
        }
        streams.forEach(MirrorStream::start);
        LOG.info("Mirroring with {} streams", streams.size());
    }

    /** The first failure that stopped a stream, if one did: the mirror should then be closed and looked at. */
    public Optional<MirrorException> failure() {
        return streams.stream().map(MirrorStream::failure).filter(f -> f != null).findFirst();
    }

    public MirrorCounters counters() {
        return counters;
    }

    /** Stops every stream (each sends and commits what it took), then the producer. */
    @Override
    public void close() {
        streams.forEach(MirrorStream::close);
        producer.close();
        targets.close();
        offlineReader.close();
        if (audit != null) {
            audit.close();   // after the streams: their last commits released their last counts
        }
        counters.unregister();
        LOG.info("Mirror stopped: {} records in, {} acknowledged by the offline cluster, {} commits, {} duplicates",
            counters.recordsIn(), counters.recordsOut(), counters.commits(), counters.duplicates());
    }
}
