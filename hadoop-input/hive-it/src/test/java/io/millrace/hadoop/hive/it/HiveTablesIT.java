package io.millrace.hadoop.hive.it;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HivePartitions;
import io.millrace.hadoop.hive.HiveTableDdl;
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
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Embedded Hive 4 over a topic laid out as the loader lays it out: the table from {@link HiveTableDdl},
 * the partitions from {@link HivePartitions}, and queries that must count exactly what was written.
 */
public class HiveTablesIT {

    private static final String TOPIC = "page-views";
    /** Events per hour, over a day, a month and a year boundary; one hour has a single event. */
    private static final Map<Instant, Integer> WRITTEN = new LinkedHashMap<>();

    static {
        WRITTEN.put(Instant.parse("2026-12-31T22:00:00Z"), 1_203);
        WRITTEN.put(Instant.parse("2026-12-31T23:00:00Z"), 857);
        WRITTEN.put(Instant.parse("2027-01-01T00:00:00Z"), 1_500);
        WRITTEN.put(Instant.parse("2027-01-01T01:00:00Z"), 1);
        WRITTEN.put(Instant.parse("2027-01-01T13:00:00Z"), 640);
    }

    private static Path dir;
    private static EmbeddedHive hive;
    private static HiveConfig config;
    private static Schema schema;

    @BeforeClass
    public static void startHive() throws Exception {
        dir = Path.of(System.getProperty("hive.it.dir", "target/hive-it"));
        delete(dir);
        hive = new EmbeddedHive(dir.resolve("hive"));
        Path root = dir.resolve("data");
        config = new HiveConfig(Map.of(LoadConfig.DATA_ROOT_CONFIG, root.toUri().toString(),
            LoadConfig.LAYOUT_CONFIG, "hive", HiveConfig.CREATE_TABLES_CONFIG, "false"));
        schema = HourlyEventFiles.pageViewSchema();
        HourlyEventFiles.write(root.resolve(TOPIC).resolve("hourly"), TOPIC, schema, WRITTEN);
    }

    @AfterClass
    public static void stopHive() throws IOException {
        if (hive != null) {
            hive.close();
        }
    }

    @Test
    public void thePartitionedTableCountsWhatWasWrittenInTotalPerHourAndInOneHour() throws Exception {
        HiveTableDdl ddl = new HiveTableDdl(config);
        String table = ddl.tableName(TOPIC);
        hive.run(ddl.createTable(TOPIC, schema));
        HivePartitions partitions = new HivePartitions(config, null);
        for (int pass = 0; pass < 2; pass++) {
            // registering the same hours again (a rerun, late data) changes nothing
            for (String statement : partitions.statements(TOPIC, WRITTEN.keySet())) {
                hive.run(statement);
            }
        }
        assertEquals(WRITTEN.size(), hive.run("SHOW PARTITIONS " + table).size());

        long total = WRITTEN.values().stream().mapToLong(Integer::longValue).sum();
        assertEquals(total, hive.count("SELECT COUNT(*) FROM " + table));
        assertEquals(total, hive.count("SELECT COUNT(DISTINCT header.id) FROM " + table));
        assertEquals(countsByHour(), perHour(hive.run("SELECT year, month, day, hour, COUNT(*) FROM " + table
            + " GROUP BY year, month, day, hour")));

        String oneHour = " FROM " + table + " WHERE year = 2027 AND month = 1 AND day = 1 AND hour = 0";
        assertEquals(1_500, hive.count("SELECT COUNT(*)" + oneHour));
        String dependencies = String.join("\n", hive.run("EXPLAIN DEPENDENCY SELECT COUNT(*)" + oneHour));
        assertEquals(dependencies, 1, dependencies.split("\"partitionName\"", -1).length - 1);
        assertTrue(dependencies, dependencies.contains("year=2027/month=1/day=1/hour=0"));
    }

    @Test
    public void theSchemaLiteralReachesTheMetastoreExactly() throws Exception {
        Schema tricky = HourlyEventFiles.pageViewSchema();
        String doc = "It's a \"test\"; C:\\dir, ${system:user.name} and ${hiveconf:hive.execution.engine}, ümlaut, tab\t.";
        Schema withDoc = Schema.createRecord(tricky.getName(), doc, tricky.getNamespace(), false,
            tricky.getFields().stream().map(f -> new Schema.Field(f, f.schema())).toList());
        HiveTableDdl ddl = new HiveTableDdl(config);
        hive.run(ddl.createTable("tricky_table", "tricky", withDoc));
        List<String> rows = hive.run("SHOW TBLPROPERTIES tricky_table('avro.schema.literal')");
        assertEquals(List.of("avro.schema.literal\t" + withDoc), rows);
        assertEquals(withDoc, new Schema.Parser().parse(rows.get(0).substring(rows.get(0).indexOf('\t') + 1)));
    }

    /** The rule HiveTableDdl enforces up front is Hive's own: a field "Hour" clashes with the partition column hour. */
    @Test
    public void hiveItselfRefusesAPartitionColumnNamedLikeAField() throws Exception {
        Schema events = HourlyEventFiles.pageViewSchema();
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

    private static Map<String, Long> countsByHour() {
        Map<String, Long> counts = new HashMap<>();
        WRITTEN.forEach((hour, count) -> {
            ZonedDateTime utc = hour.atZone(ZoneOffset.UTC);
            counts.put(utc.getYear() + "\t" + utc.getMonthValue() + "\t" + utc.getDayOfMonth() + "\t" + utc.getHour(),
                count.longValue());
        });
        return counts;
    }

    private static Map<String, Long> perHour(List<String> rows) {
        Map<String, Long> counts = new HashMap<>();
        for (String row : rows) {
            int tab = row.lastIndexOf('\t');
            counts.put(row.substring(0, tab), Long.parseLong(row.substring(tab + 1)));
        }
        return counts;
    }

    private static void delete(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
