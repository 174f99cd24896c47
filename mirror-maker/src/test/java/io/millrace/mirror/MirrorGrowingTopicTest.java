package io.millrace.mirror;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/** A live topic that gains partitions while it is mirrored: the offline topic grows with it. */
public class MirrorGrowingTopicTest {

    @Test
    public void partitionsAddedLiveAreAddedOfflineAndTheirRecordsKeepTheirPartition() throws Exception {
        // distinct broker ids: the brokers share this JVM's JMX names, which carry the id
        try (LocalCluster live = LocalCluster.start(1, Map.of("broker.id", 11));
             LocalCluster offline = LocalCluster.start(1, Map.of("broker.id", 12))) {
            live.createTopic("growing", 2);
            produce(live, 2, "before");
            try (MirrorMaker mirror = new MirrorMaker(new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, "growing",
                    MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L)), List.of(source(live)),
                    Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 5))) {
                mirror.start();
                Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 10, 60_000, "the first records mirrored");

                live.broker(0).cluster().createPartitions("growing", 4, List.of(), false).get(30, TimeUnit.SECONDS);
                produce(live, 4, "after");
                Conditions.waitUntil(() -> mirror.counters().recordsOut() >= 30, 60_000, "the records of every partition mirrored");
            }
            assertEquals(4, offline.broker(0).cluster().metadata().partitionCount("growing"));
            for (int p = 0; p < 4; p++) {
                List<String> values = new ArrayList<>();
                for (ConsumerRecord<String, String> record : read(offline, new TopicPartition("growing", p))) {
                    values.add(record.value());
                }
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    if (p < 2) {
                        expected.add("before-" + p + "-" + i);
                    }
                }
                for (int i = 0; i < 5; i++) {
                    expected.add("after-" + p + "-" + i);
                }
                assertEquals("offline partition " + p, expected, values);
            }
        }
    }

    private static SourceCluster source(LocalCluster cluster) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", cluster.bootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "g-growing");
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        settings.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        settings.put(ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG, 200);
        settings.put("metadata.max.age.ms", 500L);
        return new SourceCluster("live", settings);
    }

    /** Five records to each of the first {@code partitions} partitions, valued {@code <tag>-<partition>-<i>}. */
    private static void produce(LocalCluster cluster, int partitions, String tag) throws Exception {
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(Map.of("bootstrap.servers",
                cluster.bootstrapServers(), "linger.ms", 5), new StringSerializer(), new StringSerializer())) {
            List<Future<?>> acks = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                for (int p = 0; p < partitions; p++) {
                    acks.add(producer.send(new ProducerRecord<>("growing", p, 1_700_000_000_000L + i, "key-" + i,
                        tag + "-" + p + "-" + i, List.of())));
                }
            }
            for (Future<?> ack : acks) {
                ack.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static List<ConsumerRecord<String, String>> read(LocalCluster cluster, TopicPartition tp) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers())))) {
            reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp), new StringDeserializer(), new StringDeserializer())
                .forEachRemaining(records::add);
        }
        return records;
    }
}
