package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient asking a Millrace broker, which has no authorizer, about ACLs: every call
 * fails with SecurityDisabledException, as against a Kafka broker with none configured, and the
 * broker goes on serving the same connection's other requests.
 */
public class AclsTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final AclBinding ALICE_READS = new AclBinding(
        new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
        new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));

    @Test
    public void describeAclsSaysSecurityIsDisabled() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertSecurityDisabled(admin.describeAcls(AclBindingFilter.ANY).values());
            assertSecurityDisabled(admin.describeAcls(ALICE_READS.toFilter()).values());
            assertTopicsStillServed(admin);
        }
    }

    @Test
    public void createAclsAnswersEachBindingWithSecurityDisabled() throws Exception {
        AclBinding bobWrites = new AclBinding(new ResourcePattern(ResourceType.GROUP, "etl-", PatternType.PREFIXED),
            new AccessControlEntry("User:bob", "10.0.0.1", AclOperation.WRITE, AclPermissionType.DENY));
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            Map<AclBinding, ? extends Future<Void>> results = admin.createAcls(List.of(ALICE_READS, bobWrites)).values();
            assertEquals(2, results.size());
            for (Future<Void> result : results.values()) {
                assertSecurityDisabled(result);
            }
            assertTopicsStillServed(admin);
        }
    }

    @Test
    public void deleteAclsAnswersEachFilterWithSecurityDisabled() throws Exception {
        AclBindingFilter anyTopic = new AclBindingFilter(
            new ResourcePatternFilter(ResourceType.TOPIC, null, PatternType.ANY), AccessControlEntryFilter.ANY);
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            var results = admin.deleteAcls(List.of(anyTopic, ALICE_READS.toFilter())).values();
            assertEquals(2, results.size());
            for (Future<?> result : results.values()) {
                assertSecurityDisabled(result);
            }
            assertTopicsStillServed(admin);
        }
    }

    private static void assertSecurityDisabled(Future<?> result) {
        ExecutionException failure = assertThrows(ExecutionException.class, () -> result.get(30, TimeUnit.SECONDS));
        assertTrue(String.valueOf(failure.getCause()), failure.getCause() instanceof SecurityDisabledException);
        assertEquals(NoAuthorizerAclsHandler.MESSAGE, failure.getCause().getMessage());
    }

    private static void assertTopicsStillServed(Admin admin) throws Exception {
        String topic = "acls-" + System.nanoTime();
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        assertTrue(admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));
    }
}
