package io.millrace.consumer;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.testkit.Conditions;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.Test;

/** Partitions added to a subscribed topic (Kafka's AdminClient createPartitions) reach the paper's group consumers. */
public class AddedPartitionsTest {

    @Test
    public void aGroupRebalancesOverPartitionsAddedToItsTopicAndReadsThem() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(2, Map.of());
             TestProducer producer = new TestProducer(cluster.bootstrapServers());
             GroupTestSupport support = new GroupTestSupport(cluster)) {
            cluster.createTopic("growing", 2);
            Map<String, Object> settings = support.settings("g-growing");
            settings.put(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG, 500L);
            GroupConsumer<String, String> first = support.consumer(settings);
            GroupConsumer<String, String> second = support.consumer(settings);
            StreamCollector firstReads = support.subscribe(first, "growing");
            StreamCollector secondReads = support.subscribe(second, "growing");
            List<GroupConsumer<String, String>> group = List.of(first, second);
            Conditions.waitUntil(() -> GroupTestSupport.ownEachOnce(group, 2), "one partition each");

            Properties admin = new Properties();
            admin.put("bootstrap.servers", cluster.bootstrapServers());
            try (Admin client = Admin.create(admin)) {
                client.createPartitions(Map.of("growing", NewPartitions.increaseTo(6))).all().get(30, TimeUnit.SECONDS);
            }
            Conditions.waitUntil(() -> GroupTestSupport.ownEachOnce(group, 6)
                && first.ownedPartitions().size() == 3, 30_000, "the group spreads the six partitions, three each");

            List<String> sent = producer.produce("growing", 6, 20, "m");
            Conditions.waitUntil(() -> firstReads.count() + secondReads.count() >= sent.size(), 30_000, "every record arrives");
            HashSet<String> received = new HashSet<>(firstReads.values());
            received.addAll(secondReads.values());
            assertEquals(new HashSet<>(sent), received);
            assertEquals("no duplicates", sent.size(), firstReads.count() + secondReads.count());
        }
    }
}
