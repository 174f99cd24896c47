package io.millrace.hadoop.hive;

import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.avro.Schema;

/**
 * The HiveQL for a loaded topic: one external table per topic, over {@code <data-root>/<topic>/hourly},
 * partitioned by the UTC event hour ({@code year, month, day, hour INT}), stored as Avro with the
 * topic's schema as {@code avro.schema.literal}; one {@code ADD PARTITION} per loaded hour, located at
 * the hour's directory as the loader names it ({@link HourLayout}, from {@value LoadConfig#LAYOUT_CONFIG}).
 *
 * <p><b>Names.</b> A topic's table is {@code <table prefix><topic>}, lower case, with every character
 * Hive does not take in a name ({@code .} and {@code -}, the only others a topic name may have) made
 * {@code _}: topic {@code page-views} is table {@code page_views}. Two topics that differ only there
 * ({@code a.b}, {@code a_b}) would share a table: give one of them its own name. Names are written in
 * back quotes, so names that are Hive keywords work too.
 *
 * <p><b>Literals.</b> Strings are written in single quotes with {@code \} and {@code '} escaped by a
 * backslash, as Hive's lexer reads them. {@code $} is written as its unicode escape (backslash, {@code u},
 * {@code 0024}): Hive (the CLI, beeline and HiveServer2 alike) substitutes {@code ${...}} in a statement's
 * text before parsing it, inside quotes too, and a backslash would not stop it; the unicode escape does,
 * and Hive's literal unescaping turns it back into {@code $}. So the table's {@code avro.schema.literal}
 * is exactly the registry's schema.
 *
 * <p><b>Partition columns.</b> Hive refuses a partition column named like a column of the record (names
 * compared ignoring case). A schema with a top-level field {@code year}, {@code month}, {@code day} or
 * {@code hour} is refused with an error that names the field and
 * {@value HiveConfig#PARTITION_COLUMN_PREFIX_CONFIG}, which renames the partition columns for every table.
 *
 * <p>Immutable and thread-safe.
 */
public final class HiveTableDdl {

    /** The partition columns before any prefix, outermost first. */
    public static final List<String> PARTITION_COLUMNS = List.of("year", "month", "day", "hour");

    /** What Kafka and Millrace allow in a topic name; everything here is safe in a path. */
    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]+");
    private static final Pattern NOT_NAME_CHARS = Pattern.compile("[^A-Za-z0-9_]");

    private final HiveConfig config;

    public HiveTableDdl(HiveConfig config) {
        this.config = config;
    }

    /** The latest schema of the subject {@code <topic>-value}, with an error that says what is missing. */
    public static Schema valueSchema(SchemaRegistryClient registry, String topic) {
        String subject = topic + "-value";
        try {
            return registry.getLatest(subject).schema();
        } catch (SchemaRegistryClientException e) {
            if (e.status() == 404) {
                throw new IllegalArgumentException("No schema for topic " + topic + ": the registry has no subject "
                    + subject + " (" + e.getMessage() + ")", e);
            }
            throw e;
        }
    }

    /** The table of {@code topic}, qualified with the configured database if there is one. */
    public String tableName(String topic) {
        String name = config.tablePrefix() + NOT_NAME_CHARS.matcher(checkTopic(topic)).replaceAll("_");
        return qualify(name.toLowerCase(Locale.ROOT));
    }

    /**
     * {@code name} as a table name: {@code table} or {@code database.table}, letters, digits and
     * {@code _} only; qualified with the configured database when it has none of its own.
     */
    public String checkedTableName(String name) {
        String[] parts = name.split("\\.", -1);
        for (String part : parts) {
            if (parts.length > 2 || !HiveConfig.NAME.matcher(part).matches()) {
                throw new IllegalArgumentException("Not a Hive table name: " + name
                    + " (table or database.table, letters, digits and _ only)");
            }
        }
        return parts.length == 2 ? name : qualify(name);
    }

    /** Where the table of {@code topic} lives: {@code <data-root>/<topic>/hourly}. */
    public String location(String topic) {
        return config.dataRoot() + "/" + HourLayout.topicDirectory(checkTopic(topic));
    }

    /** The partition columns with the configured prefix. */
    public List<String> partitionColumns() {
        return PARTITION_COLUMNS.stream().map(column -> config.partitionColumnPrefix() + column).toList();
    }

    /** {@code CREATE EXTERNAL TABLE IF NOT EXISTS} for {@code topic}'s table, named after the topic. */
    public String createTable(String topic, Schema schema) {
        return createTable(tableName(topic), topic, schema);
    }

    /** {@code CREATE EXTERNAL TABLE IF NOT EXISTS table} over {@code topic}'s data, with {@code schema}'s columns. */
    public String createTable(String table, String topic, Schema schema) {
        checkSchema(topic, schema);
        String partitions = partitionColumns().stream().map(column -> identifier(column) + " INT")
            .collect(Collectors.joining(", "));
        return "CREATE EXTERNAL TABLE IF NOT EXISTS " + identifier(table) + "\n"
            + "PARTITIONED BY (" + partitions + ")\n"
            + "STORED AS AVRO\n"
            + "LOCATION " + literal(location(topic)) + "\n"
            + "TBLPROPERTIES (" + literal("avro.schema.literal") + "=" + literal(schema.toString()) + ", "
            + literal("millrace.topic") + "=" + literal(topic) + ")";
    }

    /** Points the table at a newer schema (data written with older ones is read through Avro's resolution). */
    public String setSchema(String table, String topic, Schema schema) {
        checkSchema(topic, schema);
        return "ALTER TABLE " + identifier(table) + " SET TBLPROPERTIES ("
            + literal("avro.schema.literal") + "=" + literal(schema.toString()) + ")";
    }

    /** {@code ADD IF NOT EXISTS PARTITION} for the UTC hour {@code hour} falls in, at the directory the loader writes it to. */
    public String addPartition(String table, String topic, Instant hour) {
        ZonedDateTime utc = HourLayout.startOfHour(hour);
        int[] values = {utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour()};
        List<String> columns = partitionColumns();
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            spec.append(i == 0 ? "" : ", ").append(identifier(columns.get(i))).append('=').append(values[i]);
        }
        return "ALTER TABLE " + identifier(table) + " ADD IF NOT EXISTS PARTITION (" + spec + ") LOCATION "
            + literal(location(topic) + "/" + config.layout().hourDirectory(hour));
    }

    /** {@code text} as a HiveQL string literal that Hive reads back as exactly {@code text} (see the class comment). */
    public static String literal(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 16).append('\'');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\', '\'' -> quoted.append('\\').append(c);
                case '$' -> quoted.append("\\u0024");
                default -> quoted.append(c);
            }
        }
        return quoted.append('\'').toString();
    }

    /** A checked table or column name in back quotes, each part of {@code database.table} on its own. */
    static String identifier(String name) {
        return "`" + name.replace(".", "`.`") + "`";
    }

    private String qualify(String table) {
        return config.database().isEmpty() ? table : config.database() + "." + table;
    }

    private static String checkTopic(String topic) {
        if (topic == null || !TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("Not a topic name: " + topic);
        }
        return topic;
    }

    private void checkSchema(String topic, Schema schema) {
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("The schema of topic " + topic + " is a " + schema.getType()
                + ", not a record: Hive's Avro tables need a record, whose fields become the columns");
        }
        for (String column : partitionColumns()) {
            for (Schema.Field field : schema.getFields()) {
                if (field.name().equalsIgnoreCase(column)) {
                    throw new IllegalArgumentException("The events of topic " + topic + " have a field '" + field.name()
                        + "', which Hive cannot have next to the partition column " + column + "; set "
                        + HiveConfig.PARTITION_COLUMN_PREFIX_CONFIG + " (e.g. p_) to rename the partition columns");
                }
            }
        }
    }
}
