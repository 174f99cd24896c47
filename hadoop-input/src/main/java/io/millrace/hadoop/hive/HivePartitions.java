package io.millrace.hadoop.hive;

import io.millrace.hadoop.HourLayout;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the hours a load wrote visible in Hive: for a topic and the hours it loaded, creates the topic's
 * table if it is missing ({@value HiveConfig#CREATE_TABLES_CONFIG}) and adds one partition per hour,
 * through the JDBC URL {@value HiveConfig#JDBC_URL_CONFIG} (plain {@code java.sql}: the Hive JDBC driver
 * comes with the user's classpath). Without that URL, {@link #register} does nothing.
 *
 * <p>Every statement is {@code IF NOT EXISTS}, so registering an hour again, or again after a failure
 * halfway, is harmless: an hour that got late data keeps its partition, which reads the new files too.
 * Registering runs after the load has committed and cannot undo it; when it fails, the data is loaded
 * but not yet in Hive, and running the same registration again (or the statements of
 * {@code bin/millrace hive-ddl --partitions}) repairs it. The load runs {@link #registerEach} once it is
 * complete, which reports a topic's failure instead of throwing it.
 *
 * <p>Thread-safe; each {@link #register} opens and closes its own connection.
 */
public final class HivePartitions {

    private static final Logger LOG = LoggerFactory.getLogger(HivePartitions.class);

    private final HiveConfig config;
    private final HiveTableDdl ddl;
    private volatile SchemaRegistryClient registry;

    /** From the load's settings: the Hive settings of {@link HiveConfig} and, to create tables, {@code schema.registry.url}. */
    public HivePartitions(Map<?, ?> props) {
        this(new HiveConfig(props), null);
    }

    /** With a registry client of the caller's ({@code null}: made from the settings when a table must be created). */
    public HivePartitions(HiveConfig config, SchemaRegistryClient registry) {
        this.config = config;
        this.ddl = new HiveTableDdl(config);
        this.registry = registry;
    }

    /** Whether a JDBC URL is set, so that {@link #register} talks to Hive. */
    public boolean enabled() {
        return config.jdbcUrl() != null;
    }

    /**
     * Adds {@code hours} (any instant within each hour; duplicates are fine) as partitions of
     * {@code topic}'s table, creating the table first if so configured. Returns the number of hours
     * registered: 0 when no JDBC URL is set or {@code hours} is empty.
     */
    public int register(String topic, Collection<Instant> hours) throws SQLException {
        if (!enabled() || hours.isEmpty()) {
            return 0;
        }
        List<String> statements = statements(topic, hours);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                execute(statement, sql);
            }
        }
        return distinctHours(hours).size();
    }

    /**
     * Registers each topic's hours on its own, as the load does after its commit: a topic that fails (Hive
     * or the registry unreachable, no JDBC driver, a schema Hive cannot take) is logged and reported with
     * the command that catches its table up, and the other topics are registered all the same. Never
     * throws for a topic's failure. Returns null when no JDBC URL is set: nothing was tried.
     */
    public HiveRegistration registerEach(Map<String, ? extends Collection<Instant>> hoursByTopic) {
        if (!enabled()) {
            return null;
        }
        List<HiveRegistration.Registered> registered = new ArrayList<>();
        List<HiveRegistration.Failed> failed = new ArrayList<>();
        for (Map.Entry<String, ? extends Collection<Instant>> topic : new TreeMap<>(hoursByTopic).entrySet()) {
            List<String> labels = distinctHours(topic.getValue()).stream().map(h -> HourLayout.label(h.toEpochMilli())).toList();
            try {
                register(topic.getKey(), topic.getValue());
                registered.add(new HiveRegistration.Registered(topic.getKey(), labels));
            } catch (SQLException | RuntimeException e) {
                String repair = HiveRegistration.repairCommand(topic.getKey());
                LOG.warn("Hive did not get the {} hours of topic {} ({}): the data is loaded, but not yet in Hive. Run {} "
                    + "with the load's settings and run what it prints in Hive", labels.size(), topic.getKey(), e, repair);
                failed.add(new HiveRegistration.Failed(topic.getKey(), labels, e.toString(), repair));
            }
        }
        return new HiveRegistration(registered, failed);
    }

    /** What {@link #register} runs, in order: the table's DDL (if tables are created) and one ADD PARTITION per hour. */
    public List<String> statements(String topic, Collection<Instant> hours) {
        List<String> statements = new ArrayList<>();
        String table = ddl.tableName(topic);
        if (config.createTables()) {
            statements.add(ddl.createTable(table, topic, HiveTableDdl.valueSchema(registry(), topic)));
        }
        for (Instant hour : distinctHours(hours)) {
            statements.add(ddl.addPartition(table, topic, hour));
        }
        return statements;
    }

    private static TreeSet<Instant> distinctHours(Collection<Instant> hours) {
        TreeSet<Instant> distinct = new TreeSet<>();
        hours.forEach(hour -> distinct.add(hour.truncatedTo(ChronoUnit.HOURS)));
        return distinct;
    }

    private Connection connect() throws SQLException {
        Properties credentials = new Properties();
        putIfSet(credentials, "user", config.getString(HiveConfig.JDBC_USER_CONFIG));
        putIfSet(credentials, "password", config.getString(HiveConfig.JDBC_PASSWORD_CONFIG));
        String url = config.jdbcUrl();
        if (!hasDriverFor(url)) {
            throw new SQLException("No JDBC driver for " + url + " is on the classpath. Hive's driver does not ship with "
                + "Millrace (it is large): add its standalone jar, e.g. CLASSPATH=/path/to/hive-jdbc-<version>-standalone.jar "
                + "bin/millrace load ..., or put it in HADOOP_CLASSPATH (docs/hadoop.md, Registering partitions)", "08001");
        }
        return DriverManager.getConnection(url, credentials);
    }

    private static boolean hasDriverFor(String url) {
        return DriverManager.drivers().anyMatch(driver -> {
            try {
                return driver.acceptsURL(url);
            } catch (SQLException e) {
                return false;
            }
        });
    }

    private static void execute(Statement statement, String sql) throws SQLException {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new SQLException("Hive refused " + firstLine(sql) + ": " + e.getMessage(), e.getSQLState(),
                e.getErrorCode(), e);
        }
    }

    private SchemaRegistryClient registry() {
        if (registry == null) {
            registry = new SchemaRegistryClient(config.originals());
        }
        return registry;
    }

    private static void putIfSet(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }

    private static String firstLine(String sql) {
        int newline = sql.indexOf('\n');
        return newline < 0 ? sql : sql.substring(0, newline);
    }
}
