package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.group.GroupConfig;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeGroupsRequest;
import io.millrace.common.protocol.message.DescribeGroupsResponse;
import io.millrace.common.protocol.message.HeartbeatRequest;
import io.millrace.common.protocol.message.HeartbeatResponse;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.SyncGroupResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * The coordinator knows nothing of what its members do: Kafka Connect's workers join with protocol
 * type "connect" and their own protocols ("sessioned", "compatible"), and get the protocol every
 * member supports, the other members' metadata for their leader, and the leader's assignment bytes
 * untouched, exactly as consumers do.
 */
public class ConnectProtocolGroupTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of(
        GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, 300));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String GROUP = "connect-cluster";
    private static final short JOIN_V = 9;
    private static final short SYNC_V = 5;

    @Test(timeout = 60_000)
    public void connectWorkersFormAGroupWithTheProtocolTheyAllSupport() throws Exception {
        // as a worker does before joining: the coordinator is found (and the offsets topic made) first
        assertEquals(0, CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000));
        try (RawClient first = client(); RawClient second = client()) {
            String firstId = memberId(first, List.of("sessioned", "compatible"));
            JoinGroupResponse alone = join(first, firstId, List.of("sessioned", "compatible"));
            assertEquals(Errors.NONE, alone.error());
            assertEquals("sessioned", alone.protocolName());
            assertEquals(Errors.NONE, sync(first, alone.generationId(), firstId, Map.of(firstId, "all to first")).error());

            // a worker that only speaks "compatible" joins: the group moves to the one protocol both have
            String secondId = memberId(second, List.of("compatible"));
            CompletableFuture<JoinGroupResponse> secondJoin = async(() -> join(second, secondId, List.of("compatible")));
            awaitRebalance(first, alone.generationId(), firstId);
            JoinGroupResponse leader = join(first, firstId, List.of("sessioned", "compatible"));
            JoinGroupResponse follower = secondJoin.get(30, TimeUnit.SECONDS);

            assertEquals(Errors.NONE, leader.error());
            assertEquals("connect", leader.protocolType());
            assertEquals("compatible", leader.protocolName());
            assertEquals("compatible", follower.protocolName());
            assertEquals(leader.generationId(), follower.generationId());
            assertEquals(firstId, leader.leader());
            Map<String, String> metadata = new HashMap<>();
            leader.members().forEach(m -> metadata.put(m.memberId(), text(m.metadata())));
            assertEquals(Map.of(firstId, "compatible of " + firstId, secondId, "compatible of " + secondId), metadata);
            assertTrue("a follower is not sent the members", follower.members().isEmpty());

            CompletableFuture<SyncGroupResponse> followerSync = async(() -> sync(second, follower.generationId(), secondId,
                Map.of()));
            SyncGroupResponse leaderSync = sync(first, leader.generationId(), firstId,
                Map.of(firstId, "connectors 0-4", secondId, "connectors 5-9 and tasks"));
            assertEquals("connectors 0-4", text(leaderSync.assignment()));
            SyncGroupResponse secondSync = followerSync.get(30, TimeUnit.SECONDS);
            assertEquals("connectors 5-9 and tasks", text(secondSync.assignment()));
            assertEquals("connect", secondSync.protocolType());
            assertEquals("compatible", secondSync.protocolName());

            DescribeGroupsResponse.Group described = first.<DescribeGroupsResponse>call(
                new DescribeGroupsRequest(List.of(GROUP), false), (short) 5).groups().get(0);
            assertEquals("Stable", described.groupState());
            assertEquals("connect", described.protocolType());
            assertEquals("compatible", described.protocolData());
            assertEquals(2, described.members().size());
        }
    }

    private static RawClient client() throws Exception {
        return new RawClient(CLUSTER.broker(0).boundPort());
    }

    private static JoinGroupRequest joinRequest(String memberId, List<String> protocols) {
        List<JoinGroupRequest.Protocol> offered = protocols.stream()
            .map(p -> new JoinGroupRequest.Protocol(p, bytes(p + " of " + memberId))).toList();
        return new JoinGroupRequest(GROUP, 10_000, 10_000, memberId, null, "connect", offered, null);
    }

    private static String memberId(RawClient client, List<String> protocols) throws Exception {
        JoinGroupResponse required = client.call(joinRequest("", protocols), JOIN_V);
        assertEquals(Errors.MEMBER_ID_REQUIRED, required.error());
        return required.memberId();
    }

    private static JoinGroupResponse join(RawClient client, String memberId, List<String> protocols) throws Exception {
        return client.call(joinRequest(memberId, protocols), JOIN_V);
    }

    private static SyncGroupResponse sync(RawClient client, int generation, String memberId, Map<String, String> plan)
        throws Exception {
        List<SyncGroupRequest.Assignment> assignments = plan.entrySet().stream()
            .map(e -> new SyncGroupRequest.Assignment(e.getKey(), bytes(e.getValue()))).toList();
        SyncGroupResponse answer = client.call(new SyncGroupRequest(GROUP, generation, memberId, null, "connect",
            null, assignments), SYNC_V);
        assertEquals(Errors.NONE, answer.error());
        return answer;
    }

    /** Heartbeats as a worker does until the coordinator says a rebalance has begun. */
    private static void awaitRebalance(RawClient client, int generation, String memberId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            HeartbeatResponse answer = client.call(new HeartbeatRequest(GROUP, generation, memberId, null), (short) 4);
            if (answer.error() == Errors.REBALANCE_IN_PROGRESS) {
                return;
            }
            assertEquals(Errors.NONE, answer.error());
            Thread.sleep(20);
        }
        throw new AssertionError("no rebalance after the second worker's join");
    }

    private interface Call<T> {
        T call() throws Exception;
    }

    private static <T> CompletableFuture<T> async(Call<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return call.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
