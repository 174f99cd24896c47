package io.millrace.broker.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.BootstrapServers;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.client.PartitionInfo;
import io.millrace.common.errors.InvalidTopicException;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.testkit.Conditions;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/** Metadata against two real brokers: bootstrap, fail-over, leaders, unknown and invalid topics. */
public class MetadataTest {

    private static LocalCluster cluster;
    private NetworkClient client;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start(2, Map.of());
        cluster.createTopic("clicks", 4);
    }

    @AfterClass
    public static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Before
    public void createClient() {
        client = new NetworkClient(NetworkClient.Options.defaults("metadata-test"));
    }

    @After
    public void closeClient() {
        client.close();
    }

    private Metadata metadata(List<InetSocketAddress> bootstrap) {
        return new Metadata(client, bootstrap, 50, 60_000);
    }

    @Test
    public void awaitTopicLearnsPartitionsAndLeadersOfBothBrokers() throws Exception {
        Metadata metadata = metadata(BootstrapServers.parse(cluster.bootstrapServers()));
        Cluster snapshot = metadata.awaitTopic("clicks", 10_000);
        assertEquals(4, snapshot.partitionCount("clicks"));
        assertEquals(2, snapshot.nodes().size());
        Set<Integer> leaders = new HashSet<>();
        for (PartitionInfo p : snapshot.partitionsForTopic("clicks")) {
            assertNotNull("partition " + p.partition() + " has a leader", p.leader());
            assertEquals(p.leader(), snapshot.leaderFor(new TopicPartition("clicks", p.partition())));
            leaders.add(p.leader().id());
        }
        assertEquals("partitions spread over both brokers", Set.of(0, 1), leaders);
    }

    @Test
    public void aDeadBootstrapAddressIsSkipped() throws Exception {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        Metadata metadata = metadata(BootstrapServers.parse("127.0.0.1:" + deadPort + "," + cluster.host() + ":"
            + cluster.brokerPort(1)));
        assertEquals(4, metadata.awaitTopic("clicks", 10_000).partitionCount("clicks"));
    }

    @Test
    public void unknownTopicTimesOutWithKafkasMessage() throws Exception {
        Metadata metadata = metadata(BootstrapServers.parse(cluster.bootstrapServers()));
        long start = System.nanoTime();
        try {
            metadata.awaitTopic("no-such-topic", 500);
            fail("an unknown topic must not appear");
        } catch (TimeoutException expected) {
            assertEquals("Topic no-such-topic not present in metadata after 500 ms", expected.getMessage());
        }
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
    }

    @Test
    public void invalidTopicNameFailsAtOnce() throws Exception {
        Metadata metadata = metadata(BootstrapServers.parse(cluster.bootstrapServers()));
        try {
            metadata.awaitTopic("bad/name", 10_000);
            fail("an invalid name must be refused");
        } catch (InvalidTopicException expected) {
            assertTrue(expected.getMessage().contains("bad/name"));
        }
    }

    /**
     * A caller that looked at a snapshot, found no leader, and asks for a refresh after another one
     * finished gets the newer snapshot at once instead of waiting out the refresh backoff.
     */
    @Test
    public void aRefreshFinishedSinceTheCallerLookedIsNotWaitedFor() throws Exception {
        Metadata metadata = new Metadata(client, BootstrapServers.parse(cluster.bootstrapServers()), 60_000, 600_000);
        metadata.addTopics(List.of("clicks"));
        Cluster seen = metadata.snapshot();
        assertEquals(4, metadata.requestUpdate().get(10, TimeUnit.SECONDS).partitionCount("clicks"));

        var sinceSeen = metadata.requestUpdateSince(seen);
        assertTrue("the finished refresh answers at once", sinceSeen.isDone());
        assertEquals(4, sinceSeen.get().partitionCount("clicks"));
        var again = metadata.requestUpdate();
        Thread.sleep(200);
        assertTrue("asking again about the same snapshot waits out the backoff", !again.isDone());
    }

    @Test
    public void noBrokerAnsweringFailsTheRefresh() throws Exception {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        Metadata metadata = metadata(BootstrapServers.parse("127.0.0.1:" + deadPort));
        try {
            metadata.requestUpdate().get(10, TimeUnit.SECONDS);
            fail("nobody answered");
        } catch (java.util.concurrent.ExecutionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof NetworkException);
        }
    }

    @Test
    public void leadersFollowABrokerThatLeavesAndReturns() throws Exception {
        Metadata metadata = metadata(BootstrapServers.parse(cluster.bootstrapServers()));
        metadata.awaitTopic("clicks", 10_000);
        cluster.stopBroker(1);
        try {
            Conditions.waitUntil(() -> refreshed(metadata).nodes().size() == 1, "broker 1 gone from metadata");
            Cluster snapshot = metadata.cluster();
            long leaderless = snapshot.partitionsForTopic("clicks").stream().filter(p -> p.leader() == null).count();
            assertEquals("broker 1's two partitions have no leader while it is away", 2, leaderless);
        } finally {
            cluster.startBroker(1);
        }
        Conditions.waitUntil(() -> refreshed(metadata).partitionsForTopic("clicks").stream()
            .allMatch(p -> p.leader() != null), "every partition led again");
        Node back = metadata.cluster().node(1);
        assertEquals(cluster.brokerPort(1), back.port());
    }

    @Test
    public void bootstrapFromTheZooKeeperBrokerRegistry() {
        List<InetSocketAddress> brokers = BootstrapServers.fromZooKeeper(cluster.zookeeperConnect(), 10_000);
        Set<Integer> ports = new HashSet<>();
        brokers.forEach(b -> ports.add(b.getPort()));
        assertEquals(Set.of(cluster.brokerPort(0), cluster.brokerPort(1)), ports);
    }

    @Test
    public void clusterKnowsNothingBeforeTheFirstRefresh() {
        Cluster empty = Cluster.empty();
        assertEquals(-1, empty.partitionCount("clicks"));
        assertNull(empty.leaderFor(new TopicPartition("clicks", 0)));
        assertTrue(empty.nodes().isEmpty());
    }

    private static Cluster refreshed(Metadata metadata) {
        try {
            return metadata.requestUpdate().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            return metadata.cluster();
        }
    }
}
