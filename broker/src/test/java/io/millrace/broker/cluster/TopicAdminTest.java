package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.InvalidTopicException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;

public class TopicAdminTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(zookeeper).around(brokers);

    @Test
    public void aCreatedTopicIsInTheRequestersViewWhenTheFutureCompletes() throws Exception {
        brokers.start(1);
        ZkCluster requester = brokers.start(2);

        Wait.get(requester.createTopic("events", 3, Map.of("retention.ms", "60000")));

        ClusterSnapshot view = requester.metadata().snapshot();
        assertEquals(3, view.partitionCount("events"));
        assertEquals(Map.of("retention.ms", "60000"), view.topicConfig("events"));
        ObjectMapper json = new ObjectMapper();
        assertEquals(json.readTree("{\"version\":1,\"config\":{\"retention.ms\":\"60000\"}}"),
            json.readTree(requester.curator().getData().forPath("/millrace/config/topics/events")));
        assertEquals(3, json.readTree(requester.curator().getData().forPath("/millrace/topics/events")).get("partitions").size());
        assertTrue(requester.curator().getChildren().forPath(ClusterPaths.CREATE_TOPIC_REQUESTS).isEmpty());
    }

    @Test
    public void creatingAnExistingTopicFailsWithTopicExists() throws Exception {
        ZkCluster broker = brokers.start(1);
        Wait.get(broker.createTopic("once", 1, Map.of()));

        Throwable e = Wait.failure(broker.createTopic("once", 2, Map.of()));

        assertTrue(String.valueOf(e), e instanceof TopicExistsException);
        assertEquals(1, broker.metadata().partitionCount("once"));
    }

    @Test
    public void illegalTopicNamesFailWithInvalidTopic() throws Exception {
        ZkCluster broker = brokers.start(1);
        for (String name : List.of("", ".", "..", "a/b", "white space", "ünïcode", "x".repeat(250))) {
            Throwable e = Wait.failure(broker.createTopic(name, 1, Map.of()));
            assertTrue(name + ": " + e, e instanceof InvalidTopicException);
        }
        Wait.get(broker.createTopic("x".repeat(249), 1, Map.of()));
        Wait.get(broker.createTopic("Legal.name_with-all-0123456789", 1, Map.of()));
    }

    @Test
    public void partitionCountsBelowOneOrAboveTheLimitFailWithInvalidPartitions() throws Exception {
        ZkCluster broker = brokers.start(1);
        for (int partitions : new int[] {0, -1, Integer.MIN_VALUE, TopicAdmin.MAX_PARTITIONS + 1}) {
            Throwable e = Wait.failure(broker.createTopic("t", partitions, Map.of()));
            assertTrue(partitions + ": " + e, e instanceof InvalidPartitionsException);
        }
        assertFalse(broker.metadata().snapshot().hasTopic("t"));
    }

    @Test
    public void configsWithoutValuesAreRefused() throws Exception {
        ZkCluster broker = brokers.start(1);
        Map<String, String> config = new HashMap<>();
        config.put("retention.ms", null);

        assertTrue(Wait.failure(broker.createTopic("t", 1, config)) instanceof ConfigException);
    }

    @Test
    public void deletingATopicRemovesItsAssignmentAndConfigEverywhere() throws Exception {
        ZkCluster one = brokers.start(1);
        ZkCluster two = brokers.start(2);
        Wait.get(one.createTopic("short-lived", 2, Map.of("retention.ms", "1")));
        long firstIncarnation = one.metadata().snapshot().topic("short-lived").orElseThrow().creationZxid();
        Wait.until("broker 2 sees the topic", two.metadata(), s -> s.hasTopic("short-lived"));

        Wait.get(two.deleteTopic("short-lived"));

        assertFalse(two.metadata().snapshot().hasTopic("short-lived"));
        Wait.until("broker 1 sees the deletion", one.metadata(), s -> !s.hasTopic("short-lived"));
        assertNull(one.curator().checkExists().forPath(ClusterPaths.topic("short-lived")));
        assertNull(one.curator().checkExists().forPath(ClusterPaths.topicConfig("short-lived")));
        assertEquals(Map.of(), one.metadata().topicConfig("short-lived"));
        Wait.get(one.createTopic("short-lived", 1, Map.of()));
        assertNotEquals(firstIncarnation, one.metadata().snapshot().topic("short-lived").orElseThrow().creationZxid());
    }

    @Test
    public void deletingAnUnknownTopicFailsWithUnknownTopic() throws Exception {
        ZkCluster broker = brokers.start(1);

        Throwable e = Wait.failure(broker.deleteTopic("never-was"));

        assertTrue(String.valueOf(e), e instanceof UnknownTopicOrPartitionException);
    }

    @Test
    public void twoBrokersCreatingTheSameTopicAtOnceExactlyOneSucceeds() throws Exception {
        ZkCluster one = brokers.start(1);
        ZkCluster two = brokers.start(2);
        for (int round = 0; round < 5; round++) {
            String topic = "race-" + round;
            List<CompletableFuture<Void>> attempts = raceToCreate(topic, one, two);

            int succeeded = 0;
            for (CompletableFuture<Void> attempt : attempts) {
                try {
                    Wait.get(attempt);
                    succeeded++;
                } catch (ExecutionException e) {
                    assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof TopicExistsException);
                }
            }
            assertEquals(topic, 1, succeeded);
            int partitions = Wait.until("broker 1 sees " + topic, one.metadata(), s -> s.hasTopic(topic)).partitionCount(topic);
            assertTrue(topic + " has the partitions one of the requests asked for", partitions == 1 || partitions == 2);
        }
    }

    @Test
    public void aRequestNoControllerTakesUpTimesOutAndIsWithdrawn() throws Exception {
        brokers.start(1).close(); // leaves the directories, and no controller
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
            client.start();
            client.blockUntilConnected();
            MetadataCache cache = new MetadataCache(client, "test");
            TopicAdmin admin = new TopicAdmin(client, cache, "test");
            try {
                cache.start(Duration.ofSeconds(10));
                Throwable e = Wait.failure(admin.createTopic("unattended", 1, 1, Map.of(), List.of(), Duration.ofMillis(300)));
                assertTrue(String.valueOf(e), e instanceof TimeoutException && e.getMessage().contains("withdrawn"));
                assertTrue(client.getChildren().forPath(ClusterPaths.CREATE_TOPIC_REQUESTS).isEmpty());
            } finally {
                admin.close();
                cache.close();
            }
        }
    }

    @Test
    public void requestsFailOnceTheBrokerHasLeftTheCluster() throws Exception {
        ZkCluster broker = brokers.start(1);
        broker.close();

        assertTrue(Wait.failure(broker.createTopic("late", 1, Map.of())).getMessage().contains("CLOSED"));
        assertTrue(Wait.failure(broker.deleteTopic("late")).getMessage().contains("CLOSED"));
    }

    private static List<CompletableFuture<Void>> raceToCreate(String topic, ZkCluster one, ZkCluster two) throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Void>> attempts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        threads.add(new Thread(() -> forward(go, () -> one.createTopic(topic, 1, Map.of()), first)));
        threads.add(new Thread(() -> forward(go, () -> two.createTopic(topic, 2, Map.of()), second)));
        threads.forEach(Thread::start);
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        attempts.add(first);
        attempts.add(second);
        return attempts;
    }

    private static void forward(CountDownLatch go, java.util.function.Supplier<CompletableFuture<Void>> call, CompletableFuture<Void> into) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        call.get().whenComplete((v, e) -> {
            if (e == null) {
                into.complete(null);
            } else {
                into.completeExceptionally(e);
            }
        });
    }
}
