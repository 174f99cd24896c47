package io.millrace.consumer;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.Test;

/**
 * A broker leaving and coming back: the group consumer keeps reading the partitions of the broker
 * that stays, and picks the returning broker's partitions up again where it left them.
 */
public class BrokerFailoverTest {

    @Test
    public void theConsumerFollowsABrokerThatLeavesAndReturns() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(2, Map.of());
             GroupTestSupport support = new GroupTestSupport(cluster);
             TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            cluster.createTopic("failover", 4);
            List<Integer> onBrokerZero = partitionsLedBy(cluster, "failover", 0);
            GroupConsumer<String, String> consumer = support.consumer("g-failover");
            StreamCollector reads = support.subscribe(consumer, "failover");
            List<String> sent = new ArrayList<>(producer.produce("failover", 4, 20, "before"));
            Conditions.waitUntil(() -> reads.count() >= sent.size(), 20_000, "everything before the failure");

            cluster.stopBroker(1);
            for (int partition : onBrokerZero) {
                sent.addAll(producer.produceTo("failover", partition, 20, "during-" + partition, null));
            }
            Conditions.waitUntil(() -> reads.count() >= sent.size(), 20_000, "the staying broker's partitions go on");

            cluster.startBroker(1);
            sent.addAll(producer.produce("failover", 4, 20, "after"));
            Conditions.waitUntil(() -> reads.count() >= sent.size(), 30_000, "the returning broker's partitions again");
            assertEquals(new HashSet<>(sent), new HashSet<>(reads.values()));
            assertEquals("nothing twice", sent.size(), reads.count());
        }
    }

    private static List<Integer> partitionsLedBy(LocalCluster cluster, String topic, int broker) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
            List<Integer> led = new ArrayList<>();
            for (TopicPartitionInfo info : admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()) {
                if (info.leader() != null && info.leader().id() == broker) {
                    led.add(info.partition());
                }
            }
            return led;
        }
    }
}
