package io.millrace.hadoop.hive;

import static io.millrace.hadoop.hive.EventSchemas.field;
import static io.millrace.hadoop.hive.EventSchemas.pageView;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigException;
import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.junit.Test;

/** Table names, locations, quoting and the partition columns of the generated HiveQL. */
public class HiveTableDdlTest {

    private static final String ROOT = "hdfs://namenode:8020/data/millrace";

    private static HiveTableDdl ddl(String... keyValues) {
        Map<String, Object> props = new HashMap<>();
        props.put(LoadConfig.DATA_ROOT_CONFIG, ROOT);
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return new HiveTableDdl(new HiveConfig(props));
    }

    @Test
    public void aTopicsTableIsItsNameInLowerCaseWithUnderscores() {
        assertEquals("page_views", ddl().tableName("page-views"));
        assertEquals("web_clicks_v2", ddl().tableName("Web.Clicks-v2"));
        assertEquals("logs.millrace_page_views", ddl(HiveConfig.TABLE_PREFIX_CONFIG, "millrace_",
            HiveConfig.DATABASE_CONFIG, "logs").tableName("page-views"));
        assertEquals("`logs`.`millrace_page_views`", HiveTableDdl.identifier("logs.millrace_page_views"));
    }

    @Test
    public void namesHiveOrAPathCannotTakeAreRefused() {
        for (String topic : new String[] {"", ".", "..", "a/b", "a b", "views'", "ümlaut"}) {
            assertThrows(topic, IllegalArgumentException.class, () -> ddl().tableName(topic));
        }
        for (String table : new String[] {"page-views", "a.b.c", "a.", "`x`", ""}) {
            assertThrows(table, IllegalArgumentException.class, () -> ddl().checkedTableName(table));
        }
        assertEquals("logs.views", ddl(HiveConfig.DATABASE_CONFIG, "logs").checkedTableName("views"));
        assertEquals("other.views", ddl(HiveConfig.DATABASE_CONFIG, "logs").checkedTableName("other.views"));
        assertThrows(ConfigException.class, () -> ddl(HiveConfig.TABLE_PREFIX_CONFIG, "my-"));
        assertThrows(ConfigException.class, () -> ddl(HiveConfig.PARTITION_COLUMN_PREFIX_CONFIG, "p."));
        // the layout is the loader's setting, checked as the loader checks it
        assertThrows(ConfigException.class, () -> ddl(LoadConfig.LAYOUT_CONFIG, "plain"));
    }

    @Test
    public void theTableIsExternalPartitionedByTheHourAndLocatedUnderTheDataRoot() {
        Schema schema = pageView();
        String expected = "CREATE EXTERNAL TABLE IF NOT EXISTS `page_views`\n"
            + "PARTITIONED BY (`year` INT, `month` INT, `day` INT, `hour` INT)\n"
            + "STORED AS AVRO\n"
            + "LOCATION 'hdfs://namenode:8020/data/millrace/page-views/hourly'\n"
            + "TBLPROPERTIES ('avro.schema.literal'='" + schema.toString().replace("'", "\\'")
            + "', 'millrace.topic'='page-views')";
        assertEquals(expected, ddl().createTable("page-views", schema));
        assertTrue(schema.toString().contains("e.g. 'profile'"));
        assertEquals("file:/data/t/hourly", ddl(LoadConfig.DATA_ROOT_CONFIG, "file:/data//").location("t"));
        assertThrows(ConfigException.class, () -> new HiveTableDdl(new HiveConfig(Map.of())).location("t"));
    }

    @Test
    public void literalsEscapeBackslashesQuotesAndTheDollarOfHiveVariables() {
        assertEquals("'plain'", HiveTableDdl.literal("plain"));
        assertEquals("'it\\'s'", HiveTableDdl.literal("it's"));
        assertEquals("'C:\\\\dir'", HiveTableDdl.literal("C:\\dir"));
        assertEquals("'cost \\u0024{system:user.name}'", HiveTableDdl.literal("cost ${system:user.name}"));
        assertEquals("'\"json\"; ümlaut'", HiveTableDdl.literal("\"json\"; ümlaut"));
        // a JSON escape in a schema's doc stays a JSON escape: its backslash is doubled
        Schema schema = EventSchemas.pageViewWithDoc("tab\there, quote ' and \\ backslash");
        String literal = HiveTableDdl.literal(schema.toString());
        assertTrue(literal, literal.contains("tab\\\\there, quote \\' and \\\\\\\\ backslash"));
    }

    @Test
    public void aFieldNamedLikeAPartitionColumnIsRefusedUnlessTheColumnsArePrefixed() {
        Schema clash = pageView(field("Hour", "\"int\""));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ddl().createTable("page-views", clash));
        assertTrue(refused.getMessage(), refused.getMessage().contains("'Hour'"));
        assertTrue(refused.getMessage(), refused.getMessage().contains(HiveConfig.PARTITION_COLUMN_PREFIX_CONFIG));
        assertThrows(IllegalArgumentException.class, () -> ddl().setSchema("page_views", "page-views", clash));

        HiveTableDdl prefixed = ddl(HiveConfig.PARTITION_COLUMN_PREFIX_CONFIG, "p_");
        assertEquals(List.of("p_year", "p_month", "p_day", "p_hour"), prefixed.partitionColumns());
        String create = prefixed.createTable("page-views", clash);
        assertTrue(create, create.contains("PARTITIONED BY (`p_year` INT, `p_month` INT, `p_day` INT, `p_hour` INT)"));
        assertTrue(prefixed.addPartition("t", "page-views", Instant.parse("2026-03-07T09:00:00Z"))
            .contains("(`p_year`=2026, `p_month`=3, `p_day`=7, `p_hour`=9)"));
        // nested fields are not columns of the table: a header field named like one is fine
        ddl().createTable("page-views", pageView(field("timing", "{\"type\": \"record\", \"name\": \"Timing\", "
            + "\"fields\": [" + field("hour", "\"int\"") + "]}")));
    }

    @Test
    public void onlyRecordsMakeTables() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ddl().createTable("t", Schema.create(Schema.Type.STRING)));
        assertTrue(refused.getMessage(), refused.getMessage().contains("not a record"));
    }

    @Test
    public void aPartitionPointsAtItsHoursDirectoryInEitherLayout() {
        Instant time = Instant.parse("2026-03-07T09:41:12.345Z");
        assertEquals("ALTER TABLE `page_views` ADD IF NOT EXISTS PARTITION (`year`=2026, `month`=3, `day`=7, `hour`=9) "
            + "LOCATION '" + ROOT + "/page-views/hourly/year=2026/month=03/day=07/hour=09'",
            ddl(LoadConfig.LAYOUT_CONFIG, "hive").addPartition("page_views", "page-views", time));
        assertTrue(ddl().addPartition("page_views", "page-views", time)
            .endsWith("LOCATION '" + ROOT + "/page-views/hourly/2026/03/07/09'"));
        Instant hour = Instant.parse("2026-03-07T09:00:00Z");
        for (HourLayout layout : HourLayout.values()) {
            assertEquals(Optional.of(hour), layout.parse(layout.hourDirectory(time)));
        }
        assertEquals(Optional.empty(), HourLayout.HIVE.parse("2026/03/07/09"));
        assertEquals(Optional.empty(), HourLayout.HIVE.parse("year=2026/month=13/day=07/hour=09"));
        assertEquals(Optional.empty(), HourLayout.HOURLY.parse("2026/02/30/00"));
        assertEquals(Optional.empty(), HourLayout.HOURLY.parse("2026/03/07/09/extra"));
    }

    /** One setting names the hour directories for both: the partition is the directory the loader filed the hour under. */
    @Test
    public void aPartitionPointsWhereTheLoaderWritesItsHour() {
        Instant time = Instant.parse("2026-12-31T23:59:59.999Z");
        for (HourLayout layout : HourLayout.values()) {
            LoadConfig loader = new LoadConfig(Map.of(LoadConfig.STATE_DIR_CONFIG, ROOT + "-state",
                LoadConfig.DATA_ROOT_CONFIG, ROOT, LoadConfig.LAYOUT_CONFIG, layout.setting()));
            String written = loader.dataRoot() + "/" + loader.layout().directory("page-views", HourLayout.hourOf(time.toEpochMilli()));
            String partition = ddl(LoadConfig.LAYOUT_CONFIG, layout.setting()).addPartition("page_views", "page-views", time);
            assertTrue(partition, partition.endsWith(" LOCATION '" + written + "'"));
        }
    }

    @Test
    public void aNewerSchemaIsSetOnTheExistingTable() {
        Schema schema = pageView(field("referrer", "[\"null\", \"string\"]"));
        assertEquals("ALTER TABLE `logs`.`views` SET TBLPROPERTIES ('avro.schema.literal'="
            + HiveTableDdl.literal(schema.toString()) + ")", ddl().setSchema("logs.views", "page-views", schema));
    }
}
