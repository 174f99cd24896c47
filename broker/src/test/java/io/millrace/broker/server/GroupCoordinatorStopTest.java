package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.group.GroupConfig;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.HeartbeatRequest;
import io.millrace.common.protocol.message.HeartbeatResponse;
import io.millrace.common.protocol.message.JoinGroupRequest;
import io.millrace.common.protocol.message.JoinGroupResponse;
import io.millrace.common.protocol.message.OffsetCommitRequest;
import io.millrace.common.protocol.message.OffsetCommitResponse;
import io.millrace.common.protocol.message.SyncGroupRequest;
import io.millrace.common.protocol.message.SyncGroupResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A broker whose group coordinator has stopped while its network still answers (a broker going down)
 * tells members NOT_COORDINATOR, so they look for the next coordinator and go on there with their
 * member ids and generation. UNKNOWN_MEMBER_ID, which it answered for the groups it had just dropped,
 * makes Kafka's clients and librdkafka give up their member ids and rejoin.
 */
public class GroupCoordinatorStopTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1,
        Map.of(GroupConfig.GROUP_INITIAL_REBALANCE_DELAY_MS_CONFIG, 0));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final String GROUP = "stopping";
    private static final String TOPIC = "stopping-topic";

    @Test(timeout = 60_000)
    public void membersOfAStoppedCoordinatorAreToldNotCoordinator() throws Exception {
        CLUSTER.createTopic(TOPIC, 1, Map.of());
        CLUSTER.broker(0).groupCoordinator().findCoordinator(GROUP, 10_000);
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            JoinGroupResponse first = client.call(join(""), (short) 9);
            assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
            JoinGroupResponse joined = client.call(join(first.memberId()), (short) 9);
            assertEquals(Errors.NONE, joined.error());
            String member = joined.memberId();
            int generation = joined.generationId();
            SyncGroupRequest sync = new SyncGroupRequest(GROUP, generation, member, null, "consumer", "range",
                List.of(new SyncGroupRequest.Assignment(member, ByteBuffer.allocate(0))));
            assertEquals(Errors.NONE, sync(client, sync));
            assertEquals(Errors.NONE, heartbeat(client, member, generation));

            CLUSTER.broker(0).groupCoordinator().close();
            assertEquals(Errors.NOT_COORDINATOR, heartbeat(client, member, generation));
            assertEquals(Errors.NOT_COORDINATOR, sync(client, sync));
            OffsetCommitRequest commit = new OffsetCommitRequest(GROUP, generation, member, -1, null, List.of(
                new OffsetCommitRequest.Topic(TOPIC, List.of(new OffsetCommitRequest.Partition(0, 1, -1, "")))));
            OffsetCommitResponse committed = client.call(commit, (short) 8);
            assertEquals(Errors.NOT_COORDINATOR, Errors.forCode(committed.topics().get(0).partitions().get(0).errorCode()));
        }
    }

    private static JoinGroupRequest join(String memberId) {
        return new JoinGroupRequest(GROUP, 30_000, 10_000, memberId, null, "consumer",
            List.of(new JoinGroupRequest.Protocol("range", ByteBuffer.allocate(0))), null);
    }

    private static Errors heartbeat(RawClient client, String member, int generation) throws Exception {
        HeartbeatResponse answer = client.call(new HeartbeatRequest(GROUP, generation, member, null), (short) 4);
        return answer.error();
    }

    private static Errors sync(RawClient client, SyncGroupRequest sync) throws Exception {
        SyncGroupResponse answer = client.call(sync, (short) 5);
        return answer.error();
    }
}
