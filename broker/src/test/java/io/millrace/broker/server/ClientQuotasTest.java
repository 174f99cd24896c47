package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterClientQuotasOptions;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient asking a Millrace broker, which throttles no client, about client quotas:
 * none to describe, whatever the filter; a bad filter refused as on Kafka; setting one refused with
 * the reason, for every entity, even to validate only, and nothing stored.
 */
public class ClientQuotasTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void thereAreNoQuotasToDescribe() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertTrue(admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get(30, TimeUnit.SECONDS).isEmpty());
            ClientQuotaFilter alice = ClientQuotaFilter.containsOnly(List.of(
                ClientQuotaFilterComponent.ofEntity(ClientQuotaEntity.USER, "alice"),
                ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.CLIENT_ID)));
            assertTrue(admin.describeClientQuotas(alice).entities().get(30, TimeUnit.SECONDS).isEmpty());
            ExecutionException bad = assertThrows(ExecutionException.class, () -> admin.describeClientQuotas(
                ClientQuotaFilter.contains(List.of(ClientQuotaFilterComponent.ofEntityType("group")))).entities()
                .get(30, TimeUnit.SECONDS));
            assertTrue(String.valueOf(bad.getCause()), bad.getCause() instanceof InvalidRequestException);
        }
    }

    @Test
    public void settingAQuotaIsRefusedForEveryEntityAndStoresNothing() throws Exception {
        ClientQuotaEntity alice = new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice"));
        ClientQuotaEntity app = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "app"));
        List<ClientQuotaAlteration> alterations = List.of(
            new ClientQuotaAlteration(alice, List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1024.0))),
            new ClientQuotaAlteration(app, List.of(new ClientQuotaAlteration.Op("consumer_byte_rate", 2048.0))));
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            for (boolean validateOnly : new boolean[] {true, false}) {
                var results = admin.alterClientQuotas(alterations, new AlterClientQuotasOptions().validateOnly(validateOnly))
                    .values();
                assertEquals(2, results.size());
                for (var result : results.values()) {
                    ExecutionException refused = assertThrows(ExecutionException.class, () -> result.get(30, TimeUnit.SECONDS));
                    assertTrue(String.valueOf(refused.getCause()), refused.getCause() instanceof InvalidRequestException);
                    assertEquals(NoQuotasHandler.REFUSAL, refused.getCause().getMessage());
                }
            }
            assertTrue(admin.describeClientQuotas(ClientQuotaFilter.all()).entities().get(30, TimeUnit.SECONDS).isEmpty());
        }
    }
}
