package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.compare.Scenarios.Measurement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Scenario 5 on two brokers of either kind, at a small count: the cluster forms, the topic's
 * partitions are led by both brokers, every record of every producer is acknowledged, counted and
 * stored (the partitions' end offsets add up), and the brokers' data is gone afterwards.
 */
public class ScalingScenarioTest {

    private static final long COUNT_PER_PRODUCER = 3_000;

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 90_000)
    public void twoMillraceBrokersShareTheLoad() throws Exception {
        twoBrokersShareTheLoad(BrokerComparison.MILLRACE);
    }

    @Test(timeout = 90_000)
    public void twoKafkaBrokersShareTheLoad() throws Exception {
        twoBrokersShareTheLoad(BrokerComparison.KAFKA);
    }

    private void twoBrokersShareTheLoad(String side) throws Exception {
        Path data = tmp.newFolder("data").toPath();
        Path logs = tmp.newFolder("logs").toPath();
        try (BrokerCluster cluster = BrokerCluster.start(side, 2, data, logs, "256m")) {
            Map<Integer, Integer> leaders = cluster.createTopic(ScalingScenario.TOPIC, ScalingScenario.PARTITIONS);
            assertEquals(ScalingScenario.PARTITIONS, leaders.size());
            assertEquals("leaders " + leaders, 2, Set.copyOf(leaders.values()).size());

            Measurement m = ScalingScenario.produce(cluster.bootstrapServers(), ScalingScenario.TOPIC,
                ScalingScenario.PARTITIONS, ScalingScenario.PRODUCERS, COUNT_PER_PRODUCER);
            long total = COUNT_PER_PRODUCER * ScalingScenario.PRODUCERS;
            assertEquals(total, m.records());
            assertTrue("seconds " + m.seconds(), m.seconds() > 0 && Double.isFinite(m.recordsPerSecond()));

            Map<Integer, Long> endOffsets = endOffsets(cluster);
            assertEquals("every partition gets the same share: " + endOffsets,
                Set.of(total / ScalingScenario.PARTITIONS), new TreeSet<>(endOffsets.values()));
        }
        try (var left = Files.list(data)) {
            assertEquals("broker data left behind", 0, left.count());
        }
    }

    private static Map<Integer, Long> endOffsets(BrokerCluster cluster) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < ScalingScenario.PARTITIONS; p++) {
            request.put(new TopicPartition(ScalingScenario.TOPIC, p), OffsetSpec.latest());
        }
        try (Admin admin = cluster.admin()) {
            Map<TopicPartition, ListOffsetsResultInfo> offsets = admin.listOffsets(request).all().get(30, TimeUnit.SECONDS);
            return offsets.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
        }
    }
}
