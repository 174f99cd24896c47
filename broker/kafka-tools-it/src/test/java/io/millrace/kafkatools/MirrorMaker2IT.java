package io.millrace.kafkatools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.connect.mirror.MirrorMaker;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Apache Kafka's MirrorMaker 2, unchanged, in dedicated mode between two Millrace clusters. It runs
 * on Kafka Connect's distributed runtime, which keeps its connector configurations, source offsets
 * and statuses in compacted topics it creates on the target cluster and refuses to start unless
 * they are compacted. Every record is copied; a second run after a stop resumes from the offsets it
 * stored there instead of copying the topic again.
 */
public class MirrorMaker2IT {

    private static final String TOPIC = "page-views";
    private static final String COPY = "live." + TOPIC;

    private LocalCluster live;
    private LocalCluster offline;

    @Before
    public void startClusters() throws Exception {
        live = LocalCluster.start(1, Map.of("broker.id", 10));
        offline = LocalCluster.start(1, Map.of("broker.id", 20, "log.cleaner.backoff.ms", 200));
    }

    @After
    public void stopClusters() {
        for (LocalCluster cluster : new LocalCluster[] {live, offline}) {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test(timeout = 300_000)
    public void copiesEveryRecordAndResumesFromItsCompactedOffsetsTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", live.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        produce(0, 1_000);
        MirrorMaker first = start();
        try {
            assertEquals(1_000, awaitCopies(1_000).size());
            Map<String, Config> internal = internalTopicConfigs();
            assertTrue(internal.keySet().toString(), internal.keySet().containsAll(Set.of(
                "mm2-configs.live.internal", "mm2-offsets.live.internal", "mm2-status.live.internal")));
            for (Map.Entry<String, Config> topic : internal.entrySet()) {
                assertEquals(topic.getKey(), "compact", topic.getValue().get("cleanup.policy").value());
            }
        } finally {
            first.stop();
        }

        produce(1_000, 1_500);
        MirrorMaker second = start();
        try {
            List<ConsumerRecord<String, String>> copies = awaitCopies(1_500);
            Set<String> values = copies.stream().map(ConsumerRecord::value).collect(Collectors.toSet());
            assertEquals(1_500, values.size());
            assertTrue("the second run resumed where the first stopped, copied " + copies.size(), copies.size() < 2_000);
        } finally {
            second.stop();
        }
    }

    private MirrorMaker start() {
        Map<String, String> props = new HashMap<>();
        props.put("clusters", "live, offline");
        props.put("live.bootstrap.servers", live.bootstrapServers());
        props.put("offline.bootstrap.servers", offline.bootstrapServers());
        props.put("live->offline.enabled", "true");
        props.put("live->offline.topics", TOPIC);
        props.put("offline->live.enabled", "false");
        props.put("tasks.max", "1");
        for (String factor : List.of("replication.factor", "checkpoints.topic.replication.factor",
            "heartbeats.topic.replication.factor", "offset-syncs.topic.replication.factor",
            "offset.storage.replication.factor", "status.storage.replication.factor", "config.storage.replication.factor")) {
            props.put(factor, "1");
        }
        props.put("refresh.topics.interval.seconds", "1");
        props.put("offset.flush.interval.ms", "500");
        props.put("live.consumer.auto.offset.reset", "earliest");
        MirrorMaker mirror = new MirrorMaker(props, List.of("offline"));
        mirror.start();
        return mirror;
    }

    private void produce(int from, int to) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", live.bootstrapServers());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "user-" + (i % 37), "view-" + i));
            }
            producer.flush();
        }
    }

    /** Reads the copy from the start until {@code expected} distinct values came, then a little longer. */
    private List<ConsumerRecord<String, String>> awaitCopies(int expected) {
        Properties props = new Properties();
        props.put("bootstrap.servers", offline.bootstrapServers());
        props.put("auto.offset.reset", "earliest");
        List<ConsumerRecord<String, String>> copies = new ArrayList<>();
        Set<String> values = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = List.of(new TopicPartition(COPY, 0), new TopicPartition(COPY, 1));
            long deadline = System.currentTimeMillis() + 180_000;
            while (values.size() < expected && System.currentTimeMillis() < deadline) {
                if (consumer.assignment().isEmpty()) {
                    if (!topicExists()) {
                        sleep(500);
                        continue;
                    }
                    consumer.assign(partitions);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    copies.add(record);
                    values.add(record.value());
                }
            }
            consumer.poll(Duration.ofMillis(1_000)).forEach(copies::add);
        }
        assertEquals("every record reached the copy", expected, values.size());
        return copies;
    }

    private boolean topicExists() {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", offline.bootstrapServers()))) {
            return admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(COPY)
                && admin.describeTopics(List.of(COPY)).allTopicNames().get(30, TimeUnit.SECONDS).get(COPY)
                    .partitions().size() == 2;
        } catch (Exception e) {
            return false;
        }
    }

    private Map<String, Config> internalTopicConfigs() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", offline.bootstrapServers()))) {
            List<ConfigResource> resources = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                .filter(name -> name.startsWith("mm2-") && name.endsWith(".internal"))
                .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
            Map<String, Config> configs = new HashMap<>();
            admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS).forEach((r, c) -> configs.put(r.name(), c));
            return configs;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
