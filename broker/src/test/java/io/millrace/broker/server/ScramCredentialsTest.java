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
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient asking a Millrace broker, which authenticates no client, about SCRAM
 * credentials: none for anyone, a named user's not found as on Kafka, setting one refused with
 * the reason and deleting one finding nothing, with nothing stored.
 */
public class ScramCredentialsTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void noUserHasACredential() throws Exception {
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            assertTrue(admin.describeUserScramCredentials().all().get(30, TimeUnit.SECONDS).isEmpty());
            assertTrue(admin.describeUserScramCredentials().users().get(30, TimeUnit.SECONDS).isEmpty());
            var named = admin.describeUserScramCredentials(List.of("alice"));
            ExecutionException missing = assertThrows(ExecutionException.class,
                () -> named.description("alice").get(30, TimeUnit.SECONDS));
            assertTrue(String.valueOf(missing.getCause()), missing.getCause() instanceof ResourceNotFoundException);
        }
    }

    @Test
    public void settingACredentialIsRefusedAndDeletingOneFindsNothing() throws Exception {
        List<UserScramCredentialAlteration> alterations = List.of(
            new UserScramCredentialUpsertion("alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "secret"),
            new UserScramCredentialDeletion("bob", ScramMechanism.SCRAM_SHA_512));
        try (Admin admin = Admin.create(CLUSTER.clientProps())) {
            var results = admin.alterUserScramCredentials(alterations).values();
            ExecutionException refused = assertThrows(ExecutionException.class, () -> results.get("alice").get(30, TimeUnit.SECONDS));
            assertTrue(String.valueOf(refused.getCause()), refused.getCause() instanceof UnsupportedSaslMechanismException);
            assertEquals(NoScramCredentialsHandler.REFUSAL, refused.getCause().getMessage());
            ExecutionException absent = assertThrows(ExecutionException.class, () -> results.get("bob").get(30, TimeUnit.SECONDS));
            assertTrue(String.valueOf(absent.getCause()), absent.getCause() instanceof ResourceNotFoundException);
            assertTrue(admin.describeUserScramCredentials().all().get(30, TimeUnit.SECONDS).isEmpty());
        }
    }
}
