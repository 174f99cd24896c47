package io.millrace.hadoop.hive;

import static io.millrace.hadoop.hive.EventSchemas.field;
import static io.millrace.hadoop.hive.EventSchemas.pageView;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;

/** {@code bin/millrace hive-ddl} against a real registry: the DDL of the latest schema, and its errors. */
public class HiveDdlCommandTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    private static SchemaRegistryServer server;
    private static SchemaRegistryClient registry;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeClass
    public static void startRegistry() throws Exception {
        server = TestRegistry.start(ZOOKEEPER);
        registry = new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG, url()));
    }

    @AfterClass
    public static void stopRegistry() {
        server.close();
    }

    private static String url() {
        return server.urls().get(0);
    }

    private int run(String... args) {
        return HiveDdlCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void printsTheTableOfTheSubjectsLatestSchema() {
        Schema v1 = pageView();
        Schema v2 = pageView(field("referrer", "[\"null\", \"string\"]", "null"));
        registry.register("page-views-value", v1);
        registry.register("page-views-value", v2);
        registry.register("page-views-key", Schema.create(Schema.Type.STRING));

        assertEquals(err(), 0, run("--topic", "page-views", "--schema-registry", url(), "--data-root", "hdfs://nn/data/"));
        String expected = new HiveTableDdl(new HiveConfig(Map.of(LoadConfig.DATA_ROOT_CONFIG, "hdfs://nn/data")))
            .createTable("page-views", registry.getLatest("page-views-value").schema()) + ";\n";
        assertEquals(expected, out());
        assertTrue(out(), out().contains("{\"name\":\"referrer\",\"type\":[\"null\",\"string\"],\"default\":null}"));
        assertTrue(out(), out().startsWith("CREATE EXTERNAL TABLE IF NOT EXISTS `page_views`\n"));
        assertTrue(out(), out().contains("LOCATION 'hdfs://nn/data/page-views/hourly'"));
    }

    @Test
    public void theTableNameAndSettingsCanBeGiven() throws Exception {
        registry.register("clicks-value", pageView());
        Path config = TestDirs.create("hive-ddl").resolve("load.properties");
        Files.writeString(config, LoadConfig.DATA_ROOT_CONFIG + "=file:///loads\n"
            + SchemaRegistryClientConfig.URL_CONFIG + "=" + url() + "\n"
            + HiveConfig.DATABASE_CONFIG + "=logs\n");
        assertEquals(err(), 0, run("--topic", "clicks", "--config", config.toString(), "--table", "all_clicks",
            "--override", HiveConfig.PARTITION_COLUMN_PREFIX_CONFIG + "=p_"));
        assertTrue(out(), out().startsWith("CREATE EXTERNAL TABLE IF NOT EXISTS `logs`.`all_clicks`\n"
            + "PARTITIONED BY (`p_year` INT"));
        assertTrue(out(), out().contains("LOCATION 'file:///loads/clicks/hourly'"));

        out.reset();
        assertEquals(err(), 0, run("--topic", "clicks", "--config", config.toString(), "--alter-schema"));
        assertTrue(out(), out().startsWith("ALTER TABLE `logs`.`clicks` SET TBLPROPERTIES ('avro.schema.literal'='{"));
    }

    @Test
    public void aTopicWithoutASchemaOrAFieldNamedLikeAPartitionColumnFailsClearly() {
        assertEquals(1, run("--topic", "unknown", "--schema-registry", url(), "--data-root", "/d"));
        assertTrue(err(), err().contains("No schema for topic unknown: the registry has no subject unknown-value"));
        assertEquals("", out());

        registry.register("timed-value", pageView(field("hour", "\"int\"")));
        err.reset();
        assertEquals(1, run("--topic", "timed", "--schema-registry", url(), "--data-root", "/d"));
        assertTrue(err(), err().contains("have a field 'hour'"));
        assertEquals("", out());
    }

    @Test
    public void aCommandLineItCannotRunIsAUsageError() {
        assertEquals(2, run("--schema-registry", url()));
        assertTrue(err(), err().contains("--topic is required"));
        err.reset();
        assertEquals(2, run("--topic", "t", "--bogus"));
        assertTrue(err(), err().contains("Unknown argument --bogus"));
        err.reset();
        registry.register("no-root-value", pageView());
        assertEquals(2, run("--topic", "no-root", "--schema-registry", url()));
        assertTrue(err(), err().contains(LoadConfig.DATA_ROOT_CONFIG));
        assertEquals(0, run("--help"));
        assertTrue(out(), out().startsWith("Usage: millrace hive-ddl"));
    }

    @Test
    public void partitionsAreListedForEveryHourDirectoryOfTheTopic() throws Exception {
        Path root = TestDirs.create("hive-ddl-root");
        Path hourly = root.resolve("views/hourly");
        for (String dir : List.of("year=2026/month=10/day=31/hour=23", "year=2026/month=11/day=01/hour=00",
            "year=2026/month=11/day=01/hour=07", "year=2026/month=11/day=01/tmp", "2026/11/01/05")) {
            Files.createDirectories(hourly.resolve(dir));
        }
        Files.writeString(hourly.resolve("year=2026/month=11/day=01/hour=00/views+0+0-9.avro"), "data");
        String rootUri = root.toUri().toString();
        assertEquals(err(), 0, run("--topic", "views", "--data-root", rootUri, "--partitions",
            "--override", LoadConfig.LAYOUT_CONFIG + "=hive"));
        HiveTableDdl hive = new HiveTableDdl(new HiveConfig(Map.of(LoadConfig.DATA_ROOT_CONFIG, rootUri,
            LoadConfig.LAYOUT_CONFIG, "hive")));
        StringBuilder expected = new StringBuilder();
        for (String hour : List.of("2026-10-31T23:00:00Z", "2026-11-01T00:00:00Z", "2026-11-01T07:00:00Z")) {
            expected.append(hive.addPartition("views", "views", Instant.parse(hour))).append(";\n");
        }
        assertEquals(expected.toString(), out());

        // the loader's default layout: only the yyyy/MM/dd/HH directory is an hour
        out.reset();
        assertEquals(err(), 0, run("--topic", "views", "--data-root", rootUri, "--partitions"));
        HiveTableDdl plain = new HiveTableDdl(new HiveConfig(Map.of(LoadConfig.DATA_ROOT_CONFIG, rootUri)));
        assertEquals(plain.addPartition("views", "views", Instant.parse("2026-11-01T05:00:00Z")) + ";\n", out());
        assertTrue(out(), out().endsWith("/views/hourly/2026/11/01/05';\n"));
    }
}
