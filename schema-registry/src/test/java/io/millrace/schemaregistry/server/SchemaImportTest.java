package io.millrace.schemaregistry.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * Schemas of several data centres in one offline registry: each live registry hands out ids from its own
 * base (schema.id.base), so ids registered at the same time in two data centres never collide, and the
 * offline registry in IMPORT mode keeps the ids it is given. READONLY refuses every change.
 */
public class SchemaImportTest {

    private final EmbeddedZooKeeper zkDc1 = new EmbeddedZooKeeper();
    private final EmbeddedZooKeeper zkDc2 = new EmbeddedZooKeeper();
    private final EmbeddedZooKeeper zkOffline = new EmbeddedZooKeeper();

    @Rule
    public final TestRule zookeepers = RuleChain.outerRule(zkDc1).around(zkDc2).around(zkOffline);

    @Test
    public void idsFromTwoLiveRegistriesNeverCollideAndTheOfflineRegistryKeepsThem() throws Exception {
        try (SchemaRegistryServer dc1 = Registries.start(zkDc1, Map.of(SchemaRegistryConfig.SCHEMA_ID_BASE_CONFIG, 0));
             SchemaRegistryServer dc2 = Registries.start(zkDc2, Map.of(SchemaRegistryConfig.SCHEMA_ID_BASE_CONFIG, 1_000_000));
             SchemaRegistryServer offline = Registries.start(zkOffline)) {
            SchemaRegistryClient c1 = client(dc1);
            SchemaRegistryClient c2 = client(dc2);
            SchemaRegistryClient off = client(offline);
            // both data centres evolve the same subject at the same time, each its own way
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<List<Integer>>> registered = new ArrayList<>();
            registered.add(pool.submit(registerAll(c1, "dc1")));
            registered.add(pool.submit(registerAll(c2, "dc2")));
            List<Integer> ids1 = registered.get(0).get();
            List<Integer> ids2 = registered.get(1).get();
            pool.shutdown();
            assertTrue(String.valueOf(ids1), ids1.stream().allMatch(id -> id >= 1 && id < 1_000_000));
            assertTrue(String.valueOf(ids2), ids2.stream().allMatch(id -> id > 1_000_000));

            off.setMode("IMPORT");
            assertEquals("IMPORT", off.getMode());
            for (int id : ids1) {
                assertEquals(id, off.importSchema("events-value", id, c1.getById(id)));
            }
            for (int id : ids2) {
                assertEquals(id, off.importSchema("events-value", id, c2.getById(id)));
            }
            assertEquals("importing again changes nothing", ids1.get(0).intValue(),
                off.importSchema("events-value", ids1.get(0), c1.getById(ids1.get(0))));
            SchemaRegistryClient fresh = client(offline);
            for (int id : ids1) {
                assertEquals(c1.getById(id), fresh.getById(id));
            }
            for (int id : ids2) {
                assertEquals(c2.getById(id), fresh.getById(id));
            }
            assertEquals(ids1.size() + ids2.size(), fresh.versions("events-value").size());
            expect(42205, () -> off.importSchema("events-value", ids1.get(0), c2.getById(ids2.get(0))));
            expect(42205, () -> off.register("other-value", schema("x", 1)));
        }
    }

    @Test
    public void inImportModeARegistrationWithoutAnIdOfASchemaTheSubjectHoldsAnswersItsIdAndMakesNothingNew()
        throws Exception {
        try (SchemaRegistryServer dc1 = Registries.start(zkDc1, Map.of(SchemaRegistryConfig.SCHEMA_ID_BASE_CONFIG, 500));
             SchemaRegistryServer offline = Registries.start(zkOffline)) {
            SchemaRegistryClient live = client(dc1);
            SchemaRegistryClient off = client(offline);
            int id = live.register("_audit-value", schema("audit", 2));
            off.setMode("IMPORT");
            off.importSchema("_audit-value", id, live.getById(id));
            // an offline client that registers as it always does (auto.register.schemas): the imported id
            assertEquals(id, client(offline).register("_audit-value", schema("audit", 2)));
            assertEquals("nothing new", List.of(1), off.versions("_audit-value"));
            expect(42205, () -> client(offline).register("_audit-value", schema("audit", 3)));
            expect(42205, () -> client(offline).register("other-value", schema("audit", 2)));
        }
    }

    @Test
    public void anIdIsRefusedOutsideImportModeAndReadOnlyRefusesEveryChangeButServesReads() throws Exception {
        try (SchemaRegistryServer registry = Registries.start(zkDc1)) {
            SchemaRegistryClient client = client(registry);
            int id = client.register("s-value", schema("s", 1));
            expect(42205, () -> client(registry).importSchema("t-value", 77, schema("t", 1)));
            client.setMode("READONLY");
            expect(42205, () -> client(registry).register("u-value", schema("u", 1)));
            expect(42205, () -> client.setCompatibility(null, "NONE"));
            expect(42205, () -> client.deleteSubject("s-value", false));
            assertEquals(schema("s", 1), client(registry).getById(id));
            expect(42204, () -> client.setMode("SIDEWAYS"));
            client.setMode("READWRITE");
            assertTrue(client(registry).register("u-value", schema("u", 1)) > id);
        }
    }

    private static Callable<List<Integer>> registerAll(SchemaRegistryClient client, String dc) {
        return () -> {
            List<Integer> ids = new ArrayList<>();
            for (int v = 1; v <= 3; v++) {
                ids.add(client.register("events-value", schema(dc, v)));
            }
            return ids;
        };
    }

    /** A record of {@code fields} optional fields, each version adding one: backward compatible evolution. */
    private static Schema schema(String name, int fields) {
        SchemaBuilder.FieldAssembler<Schema> record = SchemaBuilder.record("Event_" + name).fields();
        for (int i = 0; i < fields; i++) {
            record = record.name("f" + i).type().optional().stringType();
        }
        return record.endRecord();
    }

    private static SchemaRegistryClient client(SchemaRegistryServer server) {
        return new SchemaRegistryClient(Map.of("schema.registry.url", server.urls().get(0)));
    }

    private static void expect(int errorCode, Runnable call) {
        try {
            call.run();
            fail("expected error " + errorCode);
        } catch (SchemaRegistryClientException e) {
            assertEquals(e.getMessage(), errorCode, e.errorCode());
        }
    }
}
