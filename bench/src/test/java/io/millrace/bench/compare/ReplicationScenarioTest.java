package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.compare.Scenarios.Measurement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Scenario 7 on three brokers of either kind, at a small count: the replicated topic has three
 * replicas of each partition, all in sync once the producers are done, every record is acknowledged
 * with acks=all and stored once (the end offsets add up), and the single-replica topic likewise.
 */
public class ReplicationScenarioTest {

    private static final long COUNT_PER_PRODUCER = 2_000;

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 120_000)
    public void threeMillraceBrokersReplicateEveryAcknowledgedRecord() throws Exception {
        replicate(BrokerComparison.MILLRACE);
    }

    @Test(timeout = 120_000)
    public void threeKafkaBrokersReplicateEveryAcknowledgedRecord() throws Exception {
        replicate(BrokerComparison.KAFKA);
    }

    private void replicate(String side) throws Exception {
        Path data = tmp.newFolder("data").toPath();
        try (BrokerCluster cluster = BrokerCluster.start(side, ReplicationScenario.BROKERS, data,
            tmp.newFolder("logs").toPath(), "256m")) {
            for (ReplicationScenario.Layout layout : ReplicationScenario.LAYOUTS) {
                String topic = ReplicationScenario.TOPIC + "-" + layout.replicationFactor;
                Measurement m = ReplicationScenario.run(cluster, layout, topic, COUNT_PER_PRODUCER);
                long total = COUNT_PER_PRODUCER * ReplicationScenario.PRODUCERS;
                assertEquals(total, m.records());
                assertEquals(layout + ": records stored", total, endOffsets(cluster, topic));
                try (Admin admin = cluster.admin()) {
                    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
                    for (TopicPartitionInfo p : d.partitions()) {
                        assertEquals(layout + " " + p, layout.replicationFactor, p.replicas().size());
                        assertEquals(layout + " " + p + ": replicas in sync", layout.replicationFactor, p.isr().size());
                        // what a failed run's message says of the topic
                        assertTrue(cluster.describe(topic), cluster.describe(topic).contains(p.partition() + ": leader "
                            + p.leader().id() + ", replicas " + ids(p.replicas()) + ", isr " + ids(p.isr())));
                    }
                }
            }
        }
        try (var left = Files.list(data)) {
            assertEquals("broker data left behind", 0, left.count());
        }
    }

    private static String ids(List<Node> nodes) {
        return nodes.stream().map(n -> Integer.toString(n.id())).collect(Collectors.joining(",", "[", "]"));
    }

    private static long endOffsets(BrokerCluster cluster, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < ReplicationScenario.PARTITIONS; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        try (Admin admin = cluster.admin()) {
            Map<TopicPartition, ListOffsetsResultInfo> offsets = admin.listOffsets(request).all().get(30, TimeUnit.SECONDS);
            return offsets.values().stream().mapToLong(ListOffsetsResultInfo::offset).sum();
        }
    }
}
