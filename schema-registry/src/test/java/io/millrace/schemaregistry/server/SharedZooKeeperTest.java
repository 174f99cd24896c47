package io.millrace.schemaregistry.server;

import static io.millrace.schemaregistry.server.TestSchemas.field;
import static io.millrace.schemaregistry.server.TestSchemas.pageView;
import static org.junit.Assert.assertEquals;

import io.millrace.schemaregistry.server.RegistryHttp.Answer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * Two registry instances on one ZooKeeper: they serve the same ids, and concurrent registrations,
 * on either instance, never give one schema two ids or two schemas one id.
 */
public class SharedZooKeeperTest {

    private static final int THREADS = 8;

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    private SchemaRegistryServer first;
    private SchemaRegistryServer second;
    private List<RegistryHttp> instances;
    private ExecutorService pool;

    @Before
    public void startRegistries() throws Exception {
        first = Registries.start(zookeeper);
        second = Registries.start(zookeeper);
        instances = List.of(new RegistryHttp(first.urls().get(0)), new RegistryHttp(second.urls().get(0)));
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @After
    public void stopRegistries() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        first.close();
        second.close();
    }

    @Test
    public void bothInstancesServeWhatEitherRegistered() {
        int id = instances.get(0).postSchema("/subjects/views-value/versions", pageView()).body().get("id").asInt();
        Answer byId = instances.get(1).get("/schemas/ids/" + id);
        assertEquals(200, byId.status());
        assertEquals("[1]", instances.get(1).get("/subjects/views-value/versions").body().toString());
        int next = instances.get(1).postSchema("/subjects/views-value/versions", pageView(field("ref", "\"string\"", "\"\""))).body().get("id").asInt();
        assertEquals(id + 1, next);
        assertEquals(next, instances.get(0).get("/subjects/views-value/versions/latest").body().get("id").asInt());
        assertEquals("settings are shared too", 200, instances.get(0).put("/config/views-value", "{\"compatibility\":\"FULL\"}").status());
        assertEquals("{\"compatibilityLevel\":\"FULL\"}", instances.get(1).get("/config/views-value").body().toString());
    }

    @Test
    public void eightThreadsRegisteringOneSchemaGetOneIdAndOneVersion() throws Exception {
        Set<Integer> ids = new HashSet<>(race(i -> instances.get(i % 2).postSchema("/subjects/clicks-value/versions", pageView())));
        assertEquals(Set.of(ids.iterator().next()), ids);
        assertEquals("[1]", instances.get(0).get("/subjects/clicks-value/versions").body().toString());
    }

    @Test
    public void eightThreadsRegisteringOneSchemaUnderDifferentSubjectsGetOneId() throws Exception {
        Set<Integer> ids = new HashSet<>(race(i -> instances.get(i % 2).postSchema("/subjects/s" + i + "/versions", pageView())));
        assertEquals(ids.toString(), 1, ids.size());
    }

    @Test
    public void eightThreadsRegisteringDifferentSchemasGetDifferentIds() throws Exception {
        List<Integer> ids = race(i -> instances.get(i % 2).postSchema("/subjects/t" + i + "/versions",
            TestSchemas.record("Event" + i, field("n", "\"int\""))));
        assertEquals(ids.toString(), THREADS, new HashSet<>(ids).size());
        for (int i = 0; i < THREADS; i++) {
            String schema = instances.get(1 - i % 2).get("/schemas/ids/" + ids.get(i)).body().get("schema").asText();
            assertEquals(schema, true, schema.contains("Event" + i + "\""));
        }
    }

    /** Runs {@code register} on {@value #THREADS} threads released at once; the ids answered, by thread. */
    private List<Integer> race(Registration register) throws Exception {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            int thread = i;
            answers.add(pool.submit((Callable<Answer>) () -> {
                start.await();
                return register.run(thread);
            }));
        }
        List<Integer> ids = new ArrayList<>();
        for (Future<Answer> answer : answers) {
            Answer a = answer.get(30, TimeUnit.SECONDS);
            assertEquals(a.toString(), 200, a.status());
            ids.add(a.body().get("id").asInt());
        }
        return ids;
    }

    @FunctionalInterface
    private interface Registration {
        Answer run(int thread);
    }
}
