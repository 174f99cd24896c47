package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DeleteGroupsRequest;
import io.millrace.common.protocol.message.DeleteGroupsResponse;
import io.millrace.common.protocol.message.DescribeGroupsRequest;
import io.millrace.common.protocol.message.DescribeGroupsResponse;
import io.millrace.common.protocol.message.ListGroupsRequest;
import io.millrace.common.protocol.message.ListGroupsResponse;
import io.millrace.common.protocol.message.OffsetDeleteRequest;
import io.millrace.common.protocol.message.OffsetDeleteResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * The group admin APIs on two brokers: each broker lists only the groups it coordinates, those
 * known only by their offsets in ZooKeeper included, so the AdminClient, asking every broker, sees
 * each group once; the other broker answers NOT_COORDINATOR.
 */
public class GroupAdminCoordinatorTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static int coordinatorOf(String group) {
        return CLUSTER.broker(0).groupCoordinator().findCoordinator(group, 10_000);
    }

    /** Offsets committed in ZooKeeper by some earlier consumer, with no member anywhere. */
    private static void offsetsOnly(String group) throws Exception {
        CLUSTER.broker(0).cluster().curator().create().creatingParentsIfNeeded()
            .forPath("/millrace/consumers/" + group + "/offsets/t/0", "7".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    public void eachBrokerListsTheGroupsItCoordinatesAndTheOtherAnswersNotCoordinator() throws Exception {
        List<String> groups = List.of("old-a", "old-b", "old-c", "old-d", "old-e", "old-f");
        for (String g : groups) {
            offsetsOnly(g);
        }
        Set<String> seen = new HashSet<>();
        for (int b = 0; b < 2; b++) {
            try (RawClient client = new RawClient(CLUSTER.broker(b).boundPort())) {
                ListGroupsResponse listed = client.call(new ListGroupsRequest(List.of(), List.of()), (short) 5);
                for (ListGroupsResponse.Group g : listed.groups()) {
                    assertEquals(g.groupId(), b, coordinatorOf(g.groupId()));
                    assertEquals("Empty", g.groupState());
                    assertEquals("", g.protocolType());
                    assertTrue(seen.add(g.groupId()));
                }
            }
        }
        assertEquals(Set.copyOf(groups), seen);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            Set<String> listed = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(10, TimeUnit.SECONDS)
                .stream().map(GroupListing::groupId).collect(Collectors.toSet());
            assertTrue(listed.containsAll(groups));
            admin.close(Duration.ofSeconds(5));
        }

        String group = groups.get(0);
        try (RawClient other = new RawClient(CLUSTER.broker(1 - coordinatorOf(group)).boundPort())) {
            DescribeGroupsResponse described = other.call(new DescribeGroupsRequest(List.of(group), false), (short) 6);
            assertEquals(Errors.NOT_COORDINATOR, described.groups().get(0).error());
            DeleteGroupsResponse deleted = other.call(new DeleteGroupsRequest(List.of(group)), (short) 2);
            assertEquals(Errors.NOT_COORDINATOR, deleted.results().get(0).error());
            OffsetDeleteResponse offsets = other.call(new OffsetDeleteRequest(group,
                List.of(new OffsetDeleteRequest.Topic("t", List.of(0)))), (short) 0);
            assertEquals(Errors.NOT_COORDINATOR, offsets.error());
        }
        try (RawClient coordinator = new RawClient(CLUSTER.broker(coordinatorOf(group)).boundPort())) {
            DescribeGroupsResponse described = coordinator.call(new DescribeGroupsRequest(List.of(group), false), (short) 6);
            assertEquals(Errors.NONE, described.groups().get(0).error());
            assertEquals("Empty", described.groups().get(0).groupState());
            DeleteGroupsResponse deleted = coordinator.call(new DeleteGroupsRequest(List.of(group)), (short) 2);
            assertEquals(Errors.NONE, deleted.results().get(0).error());
            DescribeGroupsResponse gone = coordinator.call(new DescribeGroupsRequest(List.of(group), false), (short) 6);
            assertEquals("Dead", gone.groups().get(0).groupState());
        }
    }
}
