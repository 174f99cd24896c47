package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.serde.WireFormat;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The load writes events as the Avro binary they came in; a file holds the events of one writer's schema, so
 * events of a topic whose schema evolved go to a file of each schema, and each event reads back from its file
 * exactly as it decodes from the topic.
 */
public class SchemaEvolutionLoadTest {

    /** The test event, version 2: one more field, optional, so the registry accepts it as the topic's next schema. */
    private static final Schema EVENT_V2 = SchemaBuilder.record("TestEvent").namespace("io.millrace.hadoop.test")
        .fields()
        .name(EventHeaders.HEADER_FIELD).type(EventHeaders.SCHEMA).noDefault()
        .requiredLong("seq")
        .requiredString("payload")
        .optionalString("referrer")
        .endRecord();

    private static final Pattern SCHEMA_ID = Pattern.compile(".*\\.s(\\d+)\\.avro");

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void eventsOfEachWriterSchemaGoToFilesOfThatSchemaAsTheyCame() throws Exception {
        cluster.createTopic("evolving", 2);
        List<SentEvent> sent = new ArrayList<>(cluster.produce("evolving", 2, 150, 2, 0));
        sent.addAll(produceV2("evolving", 2, 150, 2, 150));
        sent.addAll(cluster.produce("evolving", 2, 50, 2, 300));
        Map<String, Object> settings = cluster.loadSettings("evolving", "evolving");
        assertEquals(700, LoadJobTest.load(cluster, settings).records());
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(sent, false);

        Map<String, GenericRecord> inTopic = decodedFromTopic("evolving", 2);
        SchemaRegistryClient registry = cluster.registryClient();
        Set<Integer> schemaIds = new TreeSet<>();
        int loaded = 0;
        for (Path file : avroFiles(Path.of(URI.create((String) settings.get(LoadConfig.DATA_ROOT_CONFIG))))) {
            Matcher name = SCHEMA_ID.matcher(file.getFileName().toString());
            assertTrue(file.toString(), name.matches());
            int id = Integer.parseInt(name.group(1));
            schemaIds.add(id);
            try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
                assertEquals("the file's schema is its events' writer's", registry.getById(id), reader.getSchema());
                for (GenericRecord event : reader) {
                    GenericRecord sentEvent = inTopic.get(event.get("payload").toString());
                    assertEquals("written with the file's schema", registry.getById(id), sentEvent.getSchema());
                    assertEquals(sentEvent, event);
                    loaded++;
                }
            }
        }
        assertEquals(700, loaded);
        assertEquals("one schema id per version: " + schemaIds, 2, schemaIds.size());
    }

    private static List<SentEvent> produceV2(String topic, int partitions, int perPartition, int hours, int first)
        throws Exception {
        List<SentEvent> sent = new ArrayList<>();
        List<Future<?>> acks = new ArrayList<>();
        try (AvroEventProducer<String, GenericRecord> producer = cluster.newProducer()) {
            for (int p = 0; p < partitions; p++) {
                for (int i = first; i < first + perPartition; i++) {
                    long time = LoaderCluster.eventTime(i, hours);
                    String payload = topic + "/" + p + "/" + i;
                    GenericRecord v1 = LoaderCluster.event(time, i, payload);
                    GenericRecord event = new GenericData.Record(EVENT_V2);
                    v1.getSchema().getFields().forEach(f -> event.put(f.name(), v1.get(f.pos())));
                    event.put("referrer", i % 3 == 0 ? null : "https://example.com/" + i);
                    acks.add(producer.send(new ProducerRecord<>(topic, p, payload, event)));
                    sent.add(new SentEvent(topic, payload, time));
                }
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
        return sent;
    }

    /** Every event of the topic decoded with its writer's schema, by payload. */
    private static Map<String, GenericRecord> decodedFromTopic(String topic, int partitions) {
        AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>(cluster.registryClient());
        Map<String, GenericRecord> events = new HashMap<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.brokers().bootstrapServers())))) {
            for (int p = 0; p < partitions; p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                Iterator<ConsumerRecord<byte[], byte[]>> records = reader.read(tp, 0, reader.latestOffset(tp));
                while (records.hasNext()) {
                    byte[] value = records.next().value();
                    assertEquals(0, value[WireFormat.MAGIC_OFFSET]);
                    GenericRecord event = deserializer.deserialize(topic, value);
                    events.put(event.get("payload").toString(), event);
                }
            }
        }
        return events;
    }

    private static List<Path> avroFiles(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".avro")).toList();
        }
    }
}
