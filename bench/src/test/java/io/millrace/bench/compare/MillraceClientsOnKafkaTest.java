package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.MessageStream;
import io.millrace.consumer.PartitionReader;
import io.millrace.consumer.RecordViews;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.RecordMetadata;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Utils;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Millrace's producer and consumers against an Apache Kafka broker (kafka_2.13, KRaft mode, in its
 * own JVM), bootstrapping through the Metadata API: the proof that Millrace's clients speak the
 * Kafka protocol and not just Millrace's dialect of it. The group consumer keeps its registries in
 * a ZooKeeper of its own, since a KRaft broker has none.
 */
public class MillraceClientsOnKafkaTest {

    private static final String TOPIC = "interop";
    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;

    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static KafkaBroker kafka;
    private static final Map<Integer, List<String>> SENT = new HashMap<>();

    @BeforeClass
    public static void startKafkaAndProduce() throws Exception {
        Path parent = TMP.newFolder("kafka").toPath();
        kafka = new KafkaBroker(parent, parent.resolve("kafka.log"), "512m");
        kafka.start();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
        }
        produceWithMillrace();
    }

    @AfterClass
    public static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static void produceWithMillrace() throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all",
            "compression.type", "lz4", "linger.ms", "5", "max.block.ms", "60000");
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        List<String> values = new ArrayList<>();
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                String value = "event-" + i;
                acks.add(producer.send(new ProducerRecord<>(TOPIC, "user-" + (i % 97), value)));
                values.add(value);
            }
            producer.flush();
        }
        for (int i = 0; i < RECORDS; i++) {
            RecordMetadata md = acks.get(i).get(30, TimeUnit.SECONDS);
            int expected = Utils.toPositive(Utils.murmur2(("user-" + (i % 97)).getBytes())) % PARTITIONS;
            assertEquals("keys land where Kafka's own clients put them", expected, md.partition());
            SENT.computeIfAbsent(md.partition(), p -> new ArrayList<>()).add(values.get(i));
        }
    }

    @Test(timeout = 120_000)
    public void partitionReaderReadsBackEveryPartitionInOrder() {
        Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers());
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(props))) {
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition tp = new TopicPartition(TOPIC, p);
                assertEquals(0, reader.earliestOffset(tp));
                long end = reader.latestOffset(tp);
                assertEquals(SENT.get(p).size(), end);
                List<String> read = new ArrayList<>();
                Iterator<ConsumerRecord<String, String>> it = reader.read(tp, 0, end, new StringDeserializer(),
                    new StringDeserializer());
                it.forEachRemaining(r -> read.add(r.value()));
                assertEquals(SENT.get(p), read);
                List<String> viewed = new ArrayList<>();
                RecordViews views = reader.readViews(tp, 0, end); // lz4 batches, inflated once each
                while (views.advance()) {
                    viewed.add(StandardCharsets.UTF_8.decode(views.current().value()).toString());
                }
                assertEquals(SENT.get(p), viewed);
            }
        }
    }

    @Test(timeout = 120_000)
    public void groupConsumerStreamsEverythingOnce() throws Exception {
        try (EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper()) {
            zookeeper.start();
            Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers(),
                "zookeeper.connect", zookeeper.connectString(), "group.id", "interop-group",
                "auto.offset.reset", "smallest", "consumer.timeout.ms", "10000");
            try (GroupConsumer<String, String> consumer = new GroupConsumer<>(new ConsumerConfig(props),
                    new StringDeserializer(), new StringDeserializer())) {
                MessageStream<String, String> stream = consumer.createMessageStreams(Map.of(TOPIC, 1)).get(TOPIC).get(0);
                Set<String> seen = new HashSet<>();
                Iterator<ConsumerRecord<String, String>> it = stream.iterator();
                for (int i = 0; i < RECORDS; i++) {
                    ConsumerRecord<String, String> r = it.next();
                    assertTrue("duplicate " + r, seen.add(r.value()));
                }
                assertEquals(RECORDS, seen.size());
                assertEquals(PARTITIONS, consumer.ownedPartitions().size());
            }
        }
    }
}
