package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.broker.replica.ReplicaConfig;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.After;
import org.junit.Test;

/**
 * Millrace's idempotent producer on a replicated topic (three brokers, three replicas,
 * min.insync.replicas=2, acks=all, five requests in flight) while the leader is stopped and started
 * again, three times: every record is acknowledged, and each partition holds each record once, in
 * send order, whichever broker led it when the batch was appended or sent again.
 */
public class IdempotentFailoverIT {

    private static final String TOPIC = "failover";
    private static final int PARTITIONS = 2;
    private static final long WAIT_MS = 60_000;

    private LocalCluster cluster;
    private Admin admin;

    @After
    public void tearDown() {
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private TopicPartitionInfo partition(int index) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC);
        return description.partitions().get(index);
    }

    private int leaderOf(int index) throws Exception {
        TopicPartitionInfo info = partition(index);
        return info.leader() == null ? -1 : info.leader().id();
    }

    private boolean allInSync() throws Exception {
        for (int p = 0; p < PARTITIONS; p++) {
            TopicPartitionInfo info = partition(p);
            if (info.leader() == null || info.isr().size() < 3) {
                return false;
            }
        }
        return true;
    }

    @Test
    public void everyRecordIsStoredOnceAndInOrderWhileTheLeaderGoesAwayAndComesBack() throws Exception {
        cluster = LocalCluster.start(3, Map.of(ReplicaConfig.REPLICA_LAG_TIME_MAX_MS_CONFIG, 3_000,
            ReplicaConfig.REPLICA_FETCH_BACKOFF_MS_CONFIG, 100));
        admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()));
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
            .all().get();
        Conditions.waitUntil(this::allInSyncQuietly, WAIT_MS, "both partitions led with three replicas in sync");

        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("max.in.flight.requests.per.connection", 5);
        props.put("linger.ms", 2);
        props.put("batch.size", 1024);
        props.put("request.timeout.ms", 10_000);
        props.put("delivery.timeout.ms", 120_000);
        props.put("retry.backoff.ms", 100);
        props.put("metadata.max.age.ms", 1_000);
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicReference<Exception> firstError = new AtomicReference<>();
        int sent = 0;
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(props, new StringSerializer(),
            new StringSerializer())) {
            for (int round = 0; round < 3; round++) {
                sent = send(producer, sent, 1_000, acknowledged, firstError);
                int mostlyAcknowledged = sent - 500;
                Conditions.waitUntil(() -> acknowledged.get() >= mostlyAcknowledged, WAIT_MS, "records acknowledged");
                int leader = leaderOf(0);
                cluster.stopBroker(leader);
                sent = send(producer, sent, 1_000, acknowledged, firstError);
                Conditions.waitUntil(() -> leaderOfQuietly(0) >= 0 && leaderOfQuietly(0) != leader, WAIT_MS,
                    "a new leader");
                cluster.startBroker(leader);
                sent = send(producer, sent, 1_000, acknowledged, firstError);
                Conditions.waitUntil(this::allInSyncQuietly, WAIT_MS, "the restarted broker back in sync");
            }
            producer.flush();
        }
        assertNull("every record is acknowledged", firstError.get());
        assertEquals(sent, acknowledged.get());
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> expected = new ArrayList<>();
            for (int i = p; i < sent; i += PARTITIONS) {
                expected.add(String.valueOf(i));
            }
            List<String> stored = PartitionContents.read(cluster.bootstrapServers(), TOPIC, p).stream()
                .map(PartitionContents.Stored::value).toList();
            assertOnceInOrder("partition " + p, expected, stored);
        }
    }

    /** Sends {@code count} records numbered from {@code from}, alternating partitions, a little at a time. */
    private static int send(Producer<String, String> producer, int from, int count, AtomicInteger acknowledged,
                            AtomicReference<Exception> firstError) throws InterruptedException {
        for (int i = from; i < from + count; i++) {
            producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, "k", String.valueOf(i)), (metadata, e) -> {
                if (e != null) {
                    firstError.compareAndSet(null, e);
                } else {
                    acknowledged.incrementAndGet();
                }
            });
            if (i % 50 == 0) {
                Thread.sleep(5);
            }
        }
        return from + count;
    }

    private boolean allInSyncQuietly() {
        try {
            return allInSync();
        } catch (Exception e) {
            return false;
        }
    }

    private int leaderOfQuietly(int index) {
        try {
            return leaderOf(index);
        } catch (Exception e) {
            return -1;
        }
    }

    private static void assertOnceInOrder(String what, List<String> expected, List<String> stored) {
        for (int i = 0; i < Math.min(expected.size(), stored.size()); i++) {
            if (!expected.get(i).equals(stored.get(i))) {
                throw new AssertionError(what + ": at index " + i + " expected " + expected.get(i) + ", stored "
                    + stored.subList(i, Math.min(stored.size(), i + 10)) + " (" + stored.size() + " stored, "
                    + expected.size() + " sent)");
            }
        }
        assertEquals(what + ": records stored", expected.size(), stored.size());
    }
}
