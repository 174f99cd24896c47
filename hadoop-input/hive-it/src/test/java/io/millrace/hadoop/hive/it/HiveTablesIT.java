package io.millrace.hadoop.hive.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HivePartitions;
import io.millrace.hadoop.hive.HiveTableDdl;
import io.millrace.hadoop.state.HourCount;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Embedded Hive 4 over data the loader really loaded: page views produced to a broker in this JVM across
 * a day, a month and a year boundary, one {@code LoadJob} in the hive layout, then the table from
 * {@link HiveTableDdl} and the partitions from {@link HivePartitions} (the statements the load's
 * registration runs, for the hours the load's summary lists), and queries that must count exactly what
 * was produced.
 */
public class HiveTablesIT {

    private static final String TOPIC = "page-views";
    private static final int PARTITIONS = 3;
    /** Events per hour, over a day, a month and a year boundary; one hour has a single event. */
    private static final Map<Instant, Integer> PRODUCED = new LinkedHashMap<>();

    static {
        PRODUCED.put(Instant.parse("2026-12-31T22:00:00Z"), 1_203);
        PRODUCED.put(Instant.parse("2026-12-31T23:00:00Z"), 857);
        PRODUCED.put(Instant.parse("2027-01-01T00:00:00Z"), 1_500);
        PRODUCED.put(Instant.parse("2027-01-01T01:00:00Z"), 1);
        PRODUCED.put(Instant.parse("2027-01-01T13:00:00Z"), 640);
    }

    private static EmbeddedHive hive;
    private static LoadSummary loaded;
    private static List<String> registration;
    private static String table;

    @BeforeClass
    public static void loadThenStartHive() throws Exception {
        Path dir = Path.of(System.getProperty("hive.it.dir", "target/hive-it")).toAbsolutePath();
        delete(dir);
        try (LoadedPageViews source = LoadedPageViews.start(dir)) {
            source.produce(TOPIC, PARTITIONS, PRODUCED);
            Map<String, Object> settings = source.loadSettings(TOPIC, "hive");
            loaded = source.load(settings);
            HiveConfig config = new HiveConfig(settings);
            SchemaRegistryClient registry = source.registryClient();
            table = new HiveTableDdl(config).tableName(TOPIC);
            List<Instant> hours = loaded.counts().stream().map(count -> HourLayout.fromLabel(count.hour())).toList();
            registration = new HivePartitions(config, registry).statements(TOPIC, hours);
        }
        hive = new EmbeddedHive(dir.resolve("hive"));
    }

    @AfterClass
    public static void stopHive() throws IOException {
        if (hive != null) {
            hive.close();
        }
    }

    @Test
    public void theLoadedTableCountsWhatWasProducedInTotalPerHourAndInOneHour() throws Exception {
        long total = PRODUCED.values().stream().mapToLong(Integer::longValue).sum();
        assertEquals(total, loaded.records());
        assertEquals(producedByHour(), loaded.counts().stream().collect(Collectors.toMap(
            count -> hourColumns(HourLayout.fromLabel(count.hour())), HourCount::records)));
        assertTrue("the table first, then one partition per hour: " + registration,
            registration.get(0).startsWith("CREATE EXTERNAL TABLE IF NOT EXISTS `page_views`"));
        assertEquals(1 + PRODUCED.size(), registration.size());
        for (int pass = 0; pass < 2; pass++) {
            // registering the same hours again (a rerun, late data) changes nothing
            for (String statement : registration) {
                hive.run(statement);
            }
        }
        assertEquals(PRODUCED.size(), hive.run("SHOW PARTITIONS " + table).size());

        assertEquals(total, hive.count("SELECT COUNT(*) FROM " + table));
        assertEquals(total, hive.count("SELECT COUNT(DISTINCT header.id) FROM " + table));
        assertEquals(producedByHour(), perHour(hive.run("SELECT year, month, day, hour, COUNT(*) FROM " + table
            + " GROUP BY year, month, day, hour")));

        String oneHour = " FROM " + table + " WHERE year = 2027 AND month = 1 AND day = 1 AND hour = 0";
        assertEquals(1_500, hive.count("SELECT COUNT(*)" + oneHour));
        String dependencies = String.join("\n", hive.run("EXPLAIN DEPENDENCY SELECT COUNT(*)" + oneHour));
        assertEquals(dependencies, 1, dependencies.split("\"partitionName\"", -1).length - 1);
        assertTrue(dependencies, dependencies.contains("year=2027/month=1/day=1/hour=0"));
    }

    @Test
    public void theSchemaLiteralReachesTheMetastoreExactly() throws Exception {
        Schema tricky = LoadedPageViews.pageViewSchema();
        String doc = "It's a \"test\"; C:\\dir, ${system:user.name} and ${hiveconf:hive.execution.engine}, ümlaut, tab\t.";
        Schema withDoc = Schema.createRecord(tricky.getName(), doc, tricky.getNamespace(), false,
            tricky.getFields().stream().map(f -> new Schema.Field(f, f.schema())).toList());
        HiveTableDdl ddl = new HiveTableDdl(new HiveConfig(Map.of(LoadConfig.DATA_ROOT_CONFIG, "file:///nowhere")));
        hive.run(ddl.createTable("tricky_table", "tricky", withDoc));
        List<String> rows = hive.run("SHOW TBLPROPERTIES tricky_table('avro.schema.literal')");
        assertEquals(List.of("avro.schema.literal\t" + withDoc), rows);
        assertEquals(withDoc, new Schema.Parser().parse(rows.get(0).substring(rows.get(0).indexOf('\t') + 1)));
    }

    /** hive-exec bundles Avro 1.12.0 unrelocated: the loader and the producer above ran on Avro's own jar. */
    @Test
    public void avroIsLoadedFromItsOwnJarNotFromHiveExec() {
        String avro = Schema.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertTrue(avro, avro.contains("/avro-1.") && !avro.contains("hive-exec"));
    }

    /** The rule HiveTableDdl enforces up front is Hive's own: a field "Hour" clashes with the partition column hour. */
    @Test
    public void hiveItselfRefusesAPartitionColumnNamedLikeAField() throws Exception {
        Schema events = LoadedPageViews.pageViewSchema();
        List<Schema.Field> fields = new ArrayList<>();
        events.getFields().forEach(f -> fields.add(new Schema.Field(f, f.schema())));
        fields.add(new Schema.Field("Hour", Schema.create(Schema.Type.INT)));
        Schema clash = Schema.createRecord("Clash", null, "io.millrace.test", false, fields);
        // HiveTableDdl refuses this schema unless the partition columns are prefixed; take the prefix off again
        HiveTableDdl prefixed = new HiveTableDdl(new HiveConfig(Map.of(LoadConfig.DATA_ROOT_CONFIG, "file:///nowhere",
            HiveConfig.PARTITION_COLUMN_PREFIX_CONFIG, "p_")));
        String unprefixed = prefixed.createTable("clash_table", "clash", clash).replace("`p_", "`");
        CommandProcessorException refused = assertThrows(CommandProcessorException.class, () -> hive.run(unprefixed));
        assertTrue(refused.getMessage(), refused.getMessage().contains("Partition column name hour conflicts with table columns"));
    }

    /** Events produced per hour, keyed by the hour's partition values as Hive prints them: year, month, day, hour. */
    private static Map<String, Long> producedByHour() {
        Map<String, Long> counts = new HashMap<>();
        PRODUCED.forEach((hour, count) -> counts.put(hourColumns(hour), count.longValue()));
        return counts;
    }

    private static String hourColumns(Instant hour) {
        ZonedDateTime utc = hour.atZone(ZoneOffset.UTC);
        return utc.getYear() + "\t" + utc.getMonthValue() + "\t" + utc.getDayOfMonth() + "\t" + utc.getHour();
    }

    private static Map<String, Long> perHour(List<String> rows) {
        Map<String, Long> counts = new HashMap<>();
        for (String row : rows) {
            int tab = row.lastIndexOf('\t');
            counts.put(row.substring(0, tab), Long.parseLong(row.substring(tab + 1)));
        }
        return counts;
    }

    static void delete(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
