package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListTransactionsRequest;
import io.millrace.common.protocol.message.ListTransactionsResponse;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * ListTransactions from brokers that coordinate no transaction yet: Kafka's AdminClient lists none,
 * with any filter; unknown state filters are named back and a pattern that is not a regular
 * expression is refused, as by Kafka's coordinator.
 */
public class ListTransactionsTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void kafkasAdminClientListsNoTransactionOnAnyBroker() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertTrue(admin.listTransactions().all().get(30, TimeUnit.SECONDS).isEmpty());
            assertTrue(admin.listTransactions(new ListTransactionsOptions().filterProducerIds(Set.of(1L))
                .filterOnDuration(1_000)).all().get(30, TimeUnit.SECONDS).isEmpty());
            assertEquals("asked of both brokers", 2, admin.listTransactions().byBrokerId().get(30, TimeUnit.SECONDS).size());
        }
    }

    @Test
    public void unknownStatesAreNamedBackAndABadPatternIsRefused() throws Exception {
        try (RawClient client = new RawClient(CLUSTER.broker(0).boundPort())) {
            ListTransactionsResponse states = client.call(new ListTransactionsRequest(List.of("Ongoing", "Sleeping"), List.of(),
                -1L, null), (short) 2);
            assertEquals(Errors.NONE.code(), states.errorCode());
            assertEquals(List.of("Sleeping"), states.unknownStateFilters());
            assertEquals(List.of(), states.transactionStates());
            ListTransactionsResponse bad = client.call(new ListTransactionsRequest(List.of(), List.of(), -1L, "pay[ment"),
                (short) 2);
            assertEquals(Errors.INVALID_REGULAR_EXPRESSION.code(), bad.errorCode());
        }
    }
}
