package io.millrace.kafkatools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.testkit.Conditions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A Kafka Streams application, unchanged, against two Millrace brokers. A stateless topology that
 * re-keys and repartitions runs: Streams creates its repartition topic (cleanup.policy=delete),
 * coordinates its instances with its own partition assignor over Kafka's group protocol, purges the
 * repartition topic with DeleteRecords, and every record comes out under its new key, in the
 * partition Kafka's partitioner gives it. A stateful topology counts into a store backed by a
 * compacted changelog topic, which the brokers' cleaner compacts; a new instance with no local
 * state restores the store from what compaction left and counts on from there. An exactly-once
 * application (processing.guarantee=exactly_once_v2) writes each result once, in transactions that
 * also commit the offsets of what it read.
 */
public class KafkaStreamsIT {

    private static LocalCluster cluster;

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @BeforeClass
    public static void startBrokers() throws Exception {
        cluster = LocalCluster.start(2, Map.of("group.min.session.timeout.ms", 1_000, "log.cleaner.backoff.ms", 100));
    }

    @AfterClass
    public static void stopBrokers() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test(timeout = 300_000)
    public void aStatelessTopologyRepartitionsEveryRecordByItsNewKey() throws Exception {
        createTopics("sentences", "words");
        List<String> sentences = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            sentences.add("the quick fox " + i + " jumps over the lazy dog " + (i % 7));
        }
        produce("sentences", sentences);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("sentences", Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(sentence -> Arrays.asList(sentence.split(" ")))
            .selectKey((key, word) -> word)
            .repartition(Repartitioned.with(Serdes.String(), Serdes.String()).withName("by-word").withNumberOfPartitions(2))
            .mapValues(word -> word.toUpperCase())
            .to("words", Produced.with(Serdes.String(), Serdes.String()));
        try (KafkaStreams streams = new KafkaStreams(builder.build(), streamsProps("word-splitter"))) {
            streams.start();
            List<ConsumerRecord<String, String>> words = consume("words", 500 * 10);
            assertEquals(500 * 10, words.size());
            Map<String, Integer> counts = new TreeMap<>();
            for (ConsumerRecord<String, String> word : words) {
                assertEquals(word.key().toUpperCase(), word.value());
                int expected = Utils.toPositive(Utils.murmur2(word.key().getBytes())) % 2;
                assertEquals(word.key(), expected, word.partition());
                counts.merge(word.key(), 1, Integer::sum);
            }
            assertEquals(1_000, (int) counts.get("the"));
            assertEquals(500, (int) counts.get("fox"));
            assertEquals(1, (int) counts.get("499"));
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
                String repartition = "word-splitter-by-word-repartition";
                assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(repartition));
                assertEquals(2, admin.describeTopics(List.of(repartition)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(repartition).partitions().size());
            }
        }
    }

    @Test(timeout = 300_000)
    public void aStatefulTopologyCountsAndRestoresItsStateFromACompactedChangelog() throws Exception {
        createTopics("clicks", "click-counts");
        String[] pages = {"home", "cart", "search", "help"};
        Map<String, Long> expected = new TreeMap<>();
        List<String> clicks = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String page = pages[(i * i) % pages.length];
            clicks.add(page);
            expected.merge(page, 1L, Long::sum);
        }
        produce("clicks", clicks);
        String changelog = "click-counter-counts-changelog";
        try (KafkaStreams streams = new KafkaStreams(countingTopology(), countingProps())) {
            streams.start();
            awaitCounts(expected);
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, changelog);
            assertEquals("compact", admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
                .get("cleanup.policy").value());
        }
        // The cleaner (every 100 ms here) removes all but each page's last count from the closed segments.
        Conditions.waitUntil(() -> changelogRecords(changelog) < clicks.size(), 60_000,
            "the changelog's superseded counts to be removed");

        // A new instance with an empty state directory rebuilds the store from the compacted changelog alone.
        produce("clicks", List.of("home", "help"));
        expected.merge("home", 1L, Long::sum);
        expected.merge("help", 1L, Long::sum);
        try (KafkaStreams streams = new KafkaStreams(countingTopology(), countingProps())) {
            streams.start();
            awaitCounts(expected);
        }
    }

    @Test(timeout = 300_000)
    public void anExactlyOnceApplicationWritesEachResultOnceAndCommitsItsOffsetsWithIt() throws Exception {
        createTopics("payments", "payments-checked");
        List<String> payments = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            payments.add("payment-" + i);
        }
        produce("payments", payments);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("payments", Consumed.with(Serdes.String(), Serdes.String())).mapValues(v -> v + "!")
            .to("payments-checked", Produced.with(Serdes.String(), Serdes.String()));
        Properties props = streamsProps("payment-checker");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        List<ConsumerRecord<String, String>> checked;
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
            streams.start();
            checked = consume("payments-checked", payments.size(), "read_committed");
        }
        List<String> expected = payments.stream().map(v -> v + "!").sorted().toList();
        assertEquals("each result once, in committed transactions", expected,
            checked.stream().map(ConsumerRecord::value).sorted().toList());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            long committed = admin.listConsumerGroupOffsets("payment-checker").partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS).values().stream().mapToLong(o -> o.offset()).sum();
            assertEquals("the input's offsets committed with the results", payments.size(), committed);
        }
    }

    private static Topology countingTopology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
            .groupBy((key, page) -> page, Grouped.with(Serdes.String(), Serdes.String()))
            .count(Materialized.as("counts"))
            .toStream().to("click-counts", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    private Properties countingProps() throws Exception {
        Properties props = streamsProps("click-counter");
        // Small segments for the internal topics, so that the changelog has closed segments to clean. A batch larger
        // than a segment is refused with RECORD_LIST_TOO_LARGE, as Kafka refuses it, so the producer's batches stay
        // below the segment size.
        props.put(StreamsConfig.topicPrefix("segment.bytes"), 2048);
        props.put(StreamsConfig.producerPrefix("batch.size"), 1024);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return props;
    }

    /** Waits until the last count read for each page is the expected one. */
    private static void awaitCounts(Map<String, Long> expected) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("auto.offset.reset", "earliest");
        Map<String, Long> latest = new TreeMap<>();
        try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
            new LongDeserializer())) {
            consumer.assign(List.of(new TopicPartition("click-counts", 0), new TopicPartition("click-counts", 1)));
            long deadline = System.currentTimeMillis() + 120_000;
            while (!latest.equals(expected) && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> latest.put(r.key(), r.value()));
            }
        }
        assertEquals(expected, latest);
    }

    /** Records held in the changelog's partitions on their leaders. */
    private static long changelogRecords(String changelog) {
        long records = 0;
        for (int id = 0; id < cluster.brokerCount(); id++) {
            for (Log log : cluster.broker(id).logManager().allLogs()) {
                if (log.topicPartition().topic().equals(changelog)) {
                    records += countRecords(log);
                }
            }
        }
        return records;
    }

    private static long countRecords(Log log) {
        long count = 0;
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            ByteBuffer bytes;
            try {
                bytes = log.read(offset, 1 << 20, true).readFully();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (RecordBatch batch : RecordBatchIterator.batches(bytes)) {
                count += batch.recordCount();
                offset = batch.nextOffset();
            }
        }
        return count;
    }

    private Properties streamsProps(String application) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, temp.newFolder().getAbsolutePath());
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        return props;
    }

    private static void createTopics(String... topics) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            List<NewTopic> created = Arrays.stream(topics).map(t -> new NewTopic(t, 2, (short) 1)).toList();
            admin.createTopics(created).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static void produce(String topic, List<String> values) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < values.size(); i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, values.get(i)));
            }
            producer.flush();
        }
    }

    private static List<ConsumerRecord<String, String>> consume(String topic, int expected) {
        return consume(topic, expected, "read_uncommitted");
    }

    private static List<ConsumerRecord<String, String>> consume(String topic, int expected, String isolation) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("auto.offset.reset", "earliest");
        props.put("isolation.level", isolation);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)));
            long deadline = System.currentTimeMillis() + 120_000;
            while (records.size() < expected && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // anything beyond the expected count would be a duplicate
            consumer.poll(Duration.ofMillis(1_000)).forEach(records::add);
        }
        return records;
    }
}
