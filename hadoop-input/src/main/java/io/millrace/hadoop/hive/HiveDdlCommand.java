package io.millrace.hadoop.hive;

import io.millrace.common.config.ConfigException;
import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.client.SchemaRegistryClientConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.file.Files;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code bin/millrace hive-ddl --topic T}: prints the HiveQL of the topic's table, made from the latest
 * schema of the subject {@code T-value}, ready for beeline. {@code --alter-schema} prints the statement
 * that moves an existing table to that schema instead, and {@code --partitions} adds an
 * {@code ADD PARTITION} for every hour directory the topic has under the data root (to register what a
 * load could not). Settings come from {@code --config FILE} and {@code --override key=value}, then the
 * options: {@code --schema-registry} is {@code schema.registry.url} (default http://127.0.0.1:8081),
 * {@code --data-root} is {@value LoadConfig#DATA_ROOT_CONFIG}; the hour directories are named as
 * {@value LoadConfig#LAYOUT_CONFIG} says, the loader's own setting.
 */
public final class HiveDdlCommand {

    static final String USAGE = "Usage: millrace hive-ddl --topic T [--schema-registry URL] [--data-root URI] "
        + "[--table NAME] [--alter-schema] [--partitions] [--config FILE] [--override key=value ...]";
    private static final String DEFAULT_REGISTRY = "http://127.0.0.1:8081";
    private static final Set<String> OPTIONS = Set.of("--topic", "--schema-registry", "--data-root", "--table", "--config",
        "--override");
    private static final Set<String> FLAGS = Set.of("--alter-schema", "--partitions");

    private HiveDdlCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Prints the statements to {@code out}; 0 when done, 2 for a command line it cannot run, 1 on failure. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Map<String, Object> options = parse(args);
            if (options == null) {
                out.println(USAGE);
                return 0;
            }
            Map<String, Object> settings = settings(options);
            for (String statement : statements(options, new HiveConfig(settings))) {
                out.println(statement + ";");
            }
            return 0;
        } catch (UsageException | ConfigException e) {
            err.println("millrace hive-ddl: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (IOException | RuntimeException e) {
            err.println("millrace hive-ddl: " + e.getMessage());
            return 1;
        }
    }

    private static List<String> statements(Map<String, Object> options, HiveConfig config) throws IOException {
        HiveTableDdl ddl = new HiveTableDdl(config);
        String topic = (String) options.get("--topic");
        String table = options.containsKey("--table") ? ddl.checkedTableName((String) options.get("--table")) : ddl.tableName(topic);
        if (options.containsKey("--partitions")) {
            return hourDirectories(ddl.location(topic), config.layout()).stream()
                .map(hour -> ddl.addPartition(table, topic, hour)).toList();
        }
        Schema schema = HiveTableDdl.valueSchema(new SchemaRegistryClient(config.originals()), topic);
        return List.of(options.containsKey("--alter-schema") ? ddl.setSchema(table, topic, schema)
            : ddl.createTable(table, topic, schema));
    }

    /** The hours that have a directory under {@code location} (a table's, {@link HiveTableDdl#location}), in order. */
    public static SortedSet<Instant> hourDirectories(String location, HourLayout layout) throws IOException {
        Path root = new Path(location);
        FileSystem fs = root.getFileSystem(new Configuration());
        SortedSet<Instant> hours = new TreeSet<>();
        FileStatus[] found = fs.globStatus(new Path(root, "*/*/*/*"));
        String prefix = fs.makeQualified(root).toUri().getPath() + "/";
        for (FileStatus status : found == null ? new FileStatus[0] : found) {
            String path = status.getPath().toUri().getPath();
            if (status.isDirectory() && path.startsWith(prefix)) {
                layout.parse(path.substring(prefix.length())).ifPresent(hours::add);
            }
        }
        return hours;
    }

    private static Map<String, Object> settings(Map<String, Object> options) throws IOException {
        Map<String, Object> settings = new HashMap<>();
        settings.put(SchemaRegistryClientConfig.URL_CONFIG, DEFAULT_REGISTRY);
        if (options.containsKey("--config")) {
            Properties file = new Properties();
            try (Reader in = Files.newBufferedReader(java.nio.file.Path.of((String) options.get("--config")))) {
                file.load(in);
            }
            file.forEach((key, value) -> settings.put((String) key, value));
        }
        @SuppressWarnings("unchecked")
        Map<String, String> overrides = (Map<String, String>) options.get("--override");
        settings.putAll(overrides);
        putIfGiven(settings, SchemaRegistryClientConfig.URL_CONFIG, options.get("--schema-registry"));
        putIfGiven(settings, LoadConfig.DATA_ROOT_CONFIG, options.get("--data-root"));
        return settings;
    }

    /** The options by name ({@code --override} as a map, flags as TRUE); null when help was asked for. */
    private static Map<String, Object> parse(String[] args) {
        Map<String, Object> options = new HashMap<>();
        Map<String, String> overrides = new HashMap<>();
        options.put("--override", overrides);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                return null;
            } else if (FLAGS.contains(arg)) {
                options.put(arg, Boolean.TRUE);
            } else if (!OPTIONS.contains(arg)) {
                throw new UsageException("Unknown argument " + arg);
            } else if (i + 1 >= args.length) {
                throw new UsageException(arg + " needs a value");
            } else if (arg.equals("--override")) {
                override(overrides, args[++i]);
            } else {
                options.put(arg, args[++i]);
            }
        }
        if (!options.containsKey("--topic")) {
            throw new UsageException("--topic is required");
        }
        return options;
    }

    private static void override(Map<String, String> overrides, String keyValue) {
        int eq = keyValue.indexOf('=');
        if (eq <= 0) {
            throw new UsageException("--override needs key=value, not " + keyValue);
        }
        overrides.put(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1).trim());
    }

    private static void putIfGiven(Map<String, Object> settings, String key, Object value) {
        if (value != null) {
            settings.put(key, value);
        }
    }

    /** A command line the tool cannot run; the message is for the user. */
    private static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }
}
