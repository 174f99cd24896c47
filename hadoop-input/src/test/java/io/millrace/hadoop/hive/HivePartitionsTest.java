package io.millrace.hadoop.hive;

import static io.millrace.hadoop.hive.EventSchemas.pageView;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * What the registrar runs for a load's hours, that it does nothing without a JDBC URL, and that it goes
 * through {@code java.sql.DriverManager}. Hive itself runs the statements in the hive-it module.
 */
public class HivePartitionsTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    private static final String ROOT = "hdfs://nn/data";
    private static SchemaRegistryServer server;

    @BeforeClass
    public static void startRegistry() throws Exception {
        server = TestRegistry.start(ZOOKEEPER);
        new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, server.urls().get(0)))
            .register("views-value", pageView());
    }

    @AfterClass
    public static void stopRegistry() {
        server.close();
    }

    private static Map<String, Object> settings(String... keyValues) {
        Map<String, Object> props = new HashMap<>();
        props.put(LoadConfig.DATA_ROOT_CONFIG, ROOT);
        props.put(SchemaRegistryClientConfig.URL_CONFIG, server.urls().get(0));
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    private static final List<Instant> HOURS = List.of(Instant.parse("2026-11-01T00:59:59Z"),
        Instant.parse("2026-10-31T23:00:00Z"), Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-11-01T00:30:00Z"));

    @Test
    public void withoutAJdbcUrlNothingIsRegisteredOrAsked() throws SQLException {
        // no registry either: asking it for the schema would fail on the missing schema.registry.url
        HivePartitions partitions = new HivePartitions(Map.of(LoadConfig.DATA_ROOT_CONFIG, ROOT));
        assertFalse(partitions.enabled());
        assertEquals(0, partitions.register("views", HOURS));
        assertEquals(0, new HivePartitions(settings(HiveConfig.JDBC_URL_CONFIG, " ")).register("views", HOURS));
    }

    @Test
    public void theTableIsCreatedThenEachHourAddedOnceInOrder() {
        HivePartitions partitions = new HivePartitions(settings(LoadConfig.LAYOUT_CONFIG, "hive"));
        HiveTableDdl ddl = new HiveTableDdl(new HiveConfig(settings(LoadConfig.LAYOUT_CONFIG, "hive")));
        List<String> expected = List.of(ddl.createTable("views", pageView()),
            ddl.addPartition("views", "views", Instant.parse("2026-10-31T23:00:00Z")),
            ddl.addPartition("views", "views", Instant.parse("2026-11-01T00:00:00Z")));
        assertEquals(expected, partitions.statements("views", HOURS));
        assertTrue(expected.get(1), expected.get(1).endsWith("/views/hourly/year=2026/month=10/day=31/hour=23'"));

        // the loader's default layout, which the partitions follow as the loader's files do
        List<String> addOnly = new HivePartitions(settings(HiveConfig.CREATE_TABLES_CONFIG, "false")).statements("views", HOURS);
        assertEquals(2, addOnly.size());
        assertTrue(addOnly.get(0), addOnly.get(0).endsWith("/views/hourly/2026/10/31/23'"));
    }

    @Test
    public void eachTopicIsRegisteredOnItsOwnAndAFailureIsReportedNotThrown() {
        HivePartitions partitions = new HivePartitions(settings(HiveConfig.JDBC_URL_CONFIG, "jdbc:no-such-driver://h:1/db"));
        HiveRegistration result = partitions.registerEach(Map.of("views", HOURS, "unregistered", HOURS));
        assertEquals(List.of(), result.registered());
        assertEquals(List.of("unregistered", "views"), result.failed().stream().map(HiveRegistration.Failed::topic).toList());
        HiveRegistration.Failed views = result.failed().get(1);
        assertEquals(List.of("2026-10-31T23", "2026-11-01T00"), views.hours());
        assertTrue(views.error(), views.error().contains("No JDBC driver for jdbc:no-such-driver://h:1/db"));
        assertEquals("bin/millrace hive-ddl --topic views --partitions", views.repair());
        assertTrue(result.failed().get(0).error().contains("unregistered-value"));
        assertNull("no JDBC URL: nothing tried", new HivePartitions(settings()).registerEach(Map.of("views", HOURS)));
    }

    @Test
    public void statementsGoToTheDriverOfTheUrl() {
        HivePartitions partitions = new HivePartitions(settings(HiveConfig.JDBC_URL_CONFIG, "jdbc:no-such-driver://h:1/db"));
        assertTrue(partitions.enabled());
        SQLException failed = assertThrows(SQLException.class, () -> partitions.register("views", HOURS));
        assertTrue(failed.getMessage(), failed.getMessage().contains("No JDBC driver for jdbc:no-such-driver://h:1/db")
            && failed.getMessage().contains("hive-jdbc") && failed.getMessage().contains("HADOOP_CLASSPATH"));
        IllegalArgumentException noSchema = assertThrows(IllegalArgumentException.class,
            () -> partitions.register("unregistered", HOURS));
        assertTrue(noSchema.getMessage(), noSchema.getMessage().contains("unregistered-value"));
    }
}
