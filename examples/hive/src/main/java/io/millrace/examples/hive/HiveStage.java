package io.millrace.examples.hive;

import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HiveDdlCommand;
import io.millrace.hadoop.hive.HivePartitions;
import io.millrace.hadoop.hive.HiveTableDdl;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The demo's Hive stage: embedded Hive over the topics a load wrote under a data root. For each topic it runs
 * what a load's Hive registration runs ({@link HivePartitions}: the {@code CREATE EXTERNAL TABLE} of
 * {@code bin/millrace hive-ddl --topic T}, from the registry's schema, then one {@code ADD PARTITION} per hour
 * directory on disk, as {@code hive-ddl --partitions} prints them), then one query that counts the events of
 * every topic and hour, prints them as a table and, with {@code --counts FILE}, writes them there, a
 * {@link TopicHourCount} line each. Exit status 0 when Hive answered, 2 for a command line it cannot run, 1
 * when Hive failed.
 */
public final class HiveStage {

    static final String USAGE = "Usage: HiveStage --data-root URI --schema-registry URL --topics T1,T2,... --dir DIR "
        + "[--layout hourly|hive] [--counts FILE]";
    private static final List<String> OPTIONS = List.of("--data-root", "--schema-registry", "--topics", "--dir", "--layout",
        "--counts");

    private final Map<String, String> options;
    private final PrintStream out;

    private HiveStage(Map<String, String> options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public static void main(String[] args) {
        // Hive's session and its local jobs write to System.out too; the stage's own output is its table
        PrintStream out = System.out;
        System.setOut(System.err);
        int status = run(args, out, System.err);
        out.flush();
        // Hive leaves threads behind (the metastore's pool, the job runner's): the JVM would not end by itself
        System.exit(status);
    }

    /** Runs the stage, its table to {@code out}; the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("hive stage: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        try {
            List<TopicHourCount> counts = new HiveStage(options, out).run();
            if (options.containsKey("--counts")) {
                Files.write(Path.of(options.get("--counts")), counts.stream().map(TopicHourCount::line).toList(),
                    StandardCharsets.UTF_8);
            }
            return 0;
        } catch (Exception e) {
            err.println("hive stage: failed: " + e);
            e.printStackTrace(err);
            out.println("Hive failed: " + e.getMessage());
            return 1;
        }
    }

    /** Makes the tables, adds the partitions and counts the events of every topic and hour. */
    List<TopicHourCount> run() throws Exception {
        Path dir = Path.of(options.get("--dir")).toAbsolutePath();
        Files.createDirectories(dir);
        if (System.getProperty("derby.stream.error.file") == null) {
            System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
        }
        HiveConfig config = new HiveConfig(settings());
        HiveTableDdl ddl = new HiveTableDdl(config);
        SchemaRegistryClient registry = new SchemaRegistryClient(Map.of(SchemaRegistryClientConfig.URL_CONFIG,
            options.get("--schema-registry")));
        List<String> topics = topics();
        try (EmbeddedHive hive = new EmbeddedHive(dir.resolve("hive"))) {
            for (String topic : topics) {
                createTable(hive, new HivePartitions(config, registry), ddl, config.layout(), topic);
            }
            String query = query(ddl, topics);
            out.println("query: " + query.replaceAll("\\s+", " "));
            List<TopicHourCount> counts = counts(hive.run(query));
            print(counts);
            return counts;
        }
    }

    private void createTable(EmbeddedHive hive, HivePartitions partitions, HiveTableDdl ddl, HourLayout layout, String topic)
        throws Exception {
        SortedSet<Instant> hours = HiveDdlCommand.hourDirectories(ddl.location(topic), layout);
        for (String statement : partitions.statements(topic, hours)) {
            hive.run(statement);
        }
        out.printf(Locale.ROOT, "table %s over %s, %d hourly partitions (bin/millrace hive-ddl --topic %s [--partitions])%n",
            ddl.tableName(topic), ddl.location(topic), hours.size(), topic);
    }

    /** One query for every topic: its name, the hour's partition values and the hour's count. */
    static String query(HiveTableDdl ddl, List<String> topics) {
        String hour = ddl.partitionColumns().stream().map(column -> "`" + column + "`").collect(Collectors.joining(", "));
        return topics.stream().map(topic -> "SELECT " + HiveTableDdl.literal(topic) + ", " + hour + ", COUNT(*) FROM `"
                + ddl.tableName(topic).replace(".", "`.`") + "` GROUP BY " + hour)
            .collect(Collectors.joining("\nUNION ALL\n"));
    }

    /** Hive's rows ({@code topic, year, month, day, hour, count}) by topic and hour. */
    static List<TopicHourCount> counts(List<String> rows) {
        List<TopicHourCount> counts = new ArrayList<>();
        for (String row : rows) {
            String[] f = row.split("\t");
            if (f.length != 6) {
                throw new IllegalStateException("Hive returned a row of " + f.length + " columns, not 6: " + row);
            }
            ZonedDateTime hour = ZonedDateTime.of(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                Integer.parseInt(f[4]), 0, 0, 0, ZoneOffset.UTC);
            counts.add(new TopicHourCount(f[0], HourLayout.label(hour.toInstant().toEpochMilli()), Long.parseLong(f[5])));
        }
        counts.sort(Comparator.comparing(TopicHourCount::topic).thenComparing(TopicHourCount::hour));
        return counts;
    }

    private void print(List<TopicHourCount> counts) {
        out.printf(Locale.ROOT, "%-16s %-14s %12s%n", "topic", "hour (UTC)", "events");
        Map<String, Long> totals = new TreeMap<>();
        String previous = null;
        for (TopicHourCount count : counts) {
            if (previous != null && !previous.equals(count.topic())) {
                printTotal(previous, totals.get(previous));
            }
            out.printf(Locale.ROOT, "%-16s %-14s %,12d%n", count.topic(), count.hour(), count.events());
            totals.merge(count.topic(), count.events(), Long::sum);
            previous = count.topic();
        }
        if (previous != null) {
            printTotal(previous, totals.get(previous));
        }
    }

    private void printTotal(String topic, long total) {
        out.printf(Locale.ROOT, "%-16s %-14s %,12d%n", topic, "total", total);
    }

    private Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(LoadConfig.DATA_ROOT_CONFIG, options.get("--data-root"));
        settings.put(LoadConfig.LAYOUT_CONFIG, options.getOrDefault("--layout", HourLayout.HOURLY.setting()));
        settings.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, options.get("--schema-registry"));
        return settings;
    }

    private List<String> topics() {
        return List.of(options.get("--topics").split(",")).stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!OPTIONS.contains(args[i])) {
                throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            options.put(args[i], args[++i]);
        }
        for (String required : List.of("--data-root", "--schema-registry", "--topics", "--dir")) {
            if (!options.containsKey(required)) {
                throw new IllegalArgumentException(required + " is required");
            }
        }
        return options;
    }
}
