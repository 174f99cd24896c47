package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import io.millrace.testkit.Conditions;
import java.util.Map;
import org.junit.After;
import org.junit.Test;

/**
 * When {@code __consumer_offsets} is made: with {@code offsets.topic.replication.factor} replicas once
 * that many brokers are live, not with fewer while some of a larger cluster are down (the topic would
 * stay under-replicated for good), and with one per broker in a cluster that never had that many.
 */
public class OffsetsTopicCreationTest {

    private LocalCluster cluster;

    @After
    public void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void aClusterWithABrokerDownWaitsForItBeforeMakingTheTopic() throws Exception {
        cluster = LocalCluster.start(3, Map.of());
        cluster.createTopic("events", 3); // a partition on each broker: the cluster is known to have three
        cluster.stopBroker(2);
        Conditions.waitUntil(() -> cluster.broker(0).cluster().metadata().snapshot().liveBrokers().size() == 2,
            "broker 2 to leave");

        // the answer waits up to 5 s for the group's partition to have a leader
        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE.code(), findCoordinator("audit-readers").errorCode());
        assertFalse("made with two of three replicas",
            cluster.broker(0).cluster().metadata().snapshot().hasTopic("__consumer_offsets"));

        cluster.startBroker(2);
        Conditions.waitUntil(() -> findCoordinator("audit-readers").errorCode() == Errors.NONE.code(),
            "the coordinator once all three brokers are back");
        assertEquals(3, cluster.broker(0).cluster().metadata().snapshot().topic("__consumer_offsets").orElseThrow()
            .replicas(0).size());
    }

    @Test
    public void aClusterThatNeverHadEnoughBrokersGetsOneReplicaPerBroker() throws Exception {
        cluster = LocalCluster.start(1, Map.of(GroupConfig.OFFSETS_TOPIC_REPLICATION_FACTOR_CONFIG, 3));
        Conditions.waitUntil(() -> findCoordinator("audit-readers").errorCode() == Errors.NONE.code(),
            "the coordinator of a single broker");
        assertEquals(1, cluster.broker(0).cluster().metadata().snapshot().topic("__consumer_offsets").orElseThrow()
            .replicas(0).size());
    }

    private FindCoordinatorResponse findCoordinator(String group) {
        try (RawClient client = new RawClient(cluster.brokerPort(0))) {
            return client.call(FindCoordinatorRequest.forGroup(group), (short) 3);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
