package io.millrace.hadoop;

import io.millrace.audit.AuditCounter;
import io.millrace.audit.AuditingProducer;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroSerializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;

/**
 * What the loader's tests load from: ZooKeeper, a broker and a schema registry in this JVM, a
 * tracked test event ({@code TestEvent}: the event header, a sequence number and a payload naming the
 * event), a producer of such events with chosen event times, and the settings a load needs, with its
 * data root and state directory in a temporary directory.
 */
public final class LoaderCluster implements AutoCloseable {

    public static final Schema EVENT = SchemaBuilder.record("TestEvent").namespace("io.millrace.hadoop.test")
        .fields()
        .name(EventHeaders.HEADER_FIELD).type(EventHeaders.SCHEMA).noDefault()
        .requiredLong("seq")
        .requiredString("payload")
        .endRecord();

    public static final long HOUR_MS = 3_600_000L;
    /** 2024-01-31T10:00:00Z: events are spread over hours after it. */
    public static final long BASE_TIME_MS = 1_706_695_200_000L;

    private final LocalCluster cluster;
    private final SchemaRegistryServer registry;
    private final Path dir;

    private LoaderCluster(LocalCluster cluster, SchemaRegistryServer registry, Path dir) {
        this.cluster = cluster;
        this.registry = registry;
        this.dir = dir;
    }

    public static LoaderCluster start(Map<String, Object> brokerOverrides) throws Exception {
        LocalCluster cluster = LocalCluster.start(1, brokerOverrides);
        try {
            SchemaRegistryServer registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect());
            return new LoaderCluster(cluster, registry, TestDirs.create("loader-"));
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    public LocalCluster brokers() {
        return cluster;
    }

    public String registryUrl() {
        return registry.urls().get(0);
    }

    public Path dir() {
        return dir;
    }

    public void createTopic(String topic, int partitions) throws InterruptedException {
        cluster.createTopic(topic, partitions);
    }

    public void createTopic(String topic, int partitions, Map<String, String> configs) throws InterruptedException {
        cluster.createTopic(topic, partitions, configs);
    }

    /** The settings of a load from these topics into {@code <dir>/<name>/data}, state in {@code <dir>/<name>/state}. */
    public Map<String, Object> loadSettings(String name, String... topics) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl());
        props.put(LoadConfig.DATA_ROOT_CONFIG, dir.resolve(name).resolve("data").toUri().toString());
        props.put(LoadConfig.STATE_DIR_CONFIG, dir.resolve(name).resolve("state").toUri().toString());
        props.put(LoadConfig.TOPICS_CONFIG, String.join(",", topics));
        return props;
    }

    /** A Hadoop configuration for the LocalJobRunner on the local file system, its scratch space in {@link #dir}. */
    public Configuration localJobConf() {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        return conf;
    }

    /** A tracked event: header time {@code timeMs}, sequence {@code seq}, payload naming where it was sent. */
    public static GenericRecord event(long timeMs, long seq, String payload) {
        GenericRecord header = new GenericData.Record(EventHeaders.SCHEMA);
        header.put(EventHeaders.TIME_FIELD, timeMs);
        header.put(EventHeaders.SERVICE_FIELD, "loader-test");
        GenericRecord event = new GenericData.Record(EVENT);
        event.put(EventHeaders.HEADER_FIELD, header);
        event.put("seq", seq);
        event.put("payload", payload);
        return event;
    }

    /**
     * Sends {@code perPartition} events to every partition of {@code topic}, event times spread evenly over
     * {@code hours} hours from {@link #BASE_TIME_MS}; returns the payloads sent (each unique: topic/partition/n),
     * with {@code first} the first n.
     */
    public List<SentEvent> produce(String topic, int partitions, int perPartition, int hours, int first) throws Exception {
        try (AvroEventProducer<String, GenericRecord> producer = newProducer()) {
            return produce(producer, topic, partitions, perPartition, hours, first);
        }
    }

    /**
     * As {@link #produce(String, int, int, int, int)}, through a producer that counts each acknowledged event in
     * {@code counter}: the producer tier of the audit, as a front-end counts.
     */
    public List<SentEvent> produceAudited(String topic, int partitions, int perPartition, int hours, int first,
                                          AuditCounter counter) throws Exception {
        Map<String, Object> props = producerSettings();
        props.put("schema.registry.url", registryUrl());
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(new AuditingProducer<>(
                new MillraceProducer<>(props, new StringSerializer(), new AvroSerializer<>()), counter),
                EventHeaders.forThisHost())) {
            return produce(producer, topic, partitions, perPartition, hours, first);
        }
    }

    private static List<SentEvent> produce(AvroEventProducer<String, GenericRecord> producer, String topic, int partitions,
                                           int perPartition, int hours, int first) throws Exception {
        List<SentEvent> sent = new ArrayList<>();
        List<Future<?>> acks = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = first; i < first + perPartition; i++) {
                long time = eventTime(i, hours);
                String payload = topic + "/" + p + "/" + i;
                acks.add(producer.send(new ProducerRecord<>(topic, p, payload, event(time, i, payload))));
                sent.add(new SentEvent(topic, payload, time));
            }
        }
        for (Future<?> ack : acks) {
            ack.get();
        }
        return sent;
    }

    /** Sends {@code count} values that are not in the Avro wire format to each of the topic's partitions. */
    public void sendUndecodable(String topic, int partitions, int count) throws Exception {
        try (MillraceProducer<byte[], byte[]> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                cluster.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int p = 0; p < partitions; p++) {
                for (int i = 0; i < count; i++) {
                    producer.send(new ProducerRecord<>(topic, p, null, ("not avro " + i).getBytes(StandardCharsets.UTF_8))).get();
                }
            }
        }
    }

    /** Event n's time: hour n mod {@code hours} after {@link #BASE_TIME_MS}, so a partition's offsets hop between hours. */
    public static long eventTime(long n, int hours) {
        return BASE_TIME_MS + (n % hours) * HOUR_MS + (n * 997L) % HOUR_MS;
    }

    public AvroEventProducer<String, GenericRecord> newProducer() {
        return new AvroEventProducer<>(producerSettings(), new StringSerializer(), registryClient());
    }

    private Map<String, Object> producerSettings() {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("linger.ms", 5);
        props.put("auto.register.schemas", true);
        return props;
    }

    public SchemaRegistryClient registryClient() {
        return new SchemaRegistryClient(Map.of("schema.registry.url", registryUrl()));
    }

    @Override
    public void close() {
        try {
            registry.close();
        } finally {
            cluster.close();
            TestDirs.delete(dir);
        }
    }

    /** An event as produced: its topic, unique payload and event time. */
    public record SentEvent(String topic, String payload, long timeMs) {
    }
}
