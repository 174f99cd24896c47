package io.millrace.hadoop.hive;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.Validator;
import io.millrace.common.config.ConfigException;
import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The settings of the Hive tables over loaded topics: how tables and partition columns are named, and
 * the JDBC connection partitions are registered through. They sit in the load's configuration next to
 * the loader's own settings, and where the data is comes from those: {@value LoadConfig#DATA_ROOT_CONFIG}
 * and {@value LoadConfig#LAYOUT_CONFIG} are declared once, in {@link LoadConfig}, and read here through
 * the same declarations, so a table and its partitions point where the loader writes
 * ({@code schema.registry.url}, which the DDL reads the topic's schema with, is the loader's too).
 * {@link #CONFIG} holds only the Hive settings. Immutable and thread-safe.
 */
public final class HiveConfig extends AbstractConfig {

    /** Hive's rule for table, database and column names: word characters only. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

    public static final String JDBC_URL_CONFIG = "millrace.hadoop.hive.jdbc.url";
    static final String JDBC_URL_DOC = "The JDBC URL of the HiveServer2 that a load registers the hours it wrote with "
        + "(jdbc:hive2://host:10000/default). The Hive JDBC driver must be on the classpath. Unset, nothing is "
        + "registered and Hive learns of new hours only when told by hand.";

    public static final String JDBC_USER_CONFIG = "millrace.hadoop.hive.jdbc.user";
    static final String JDBC_USER_DOC = "The user name for the Hive JDBC connection, if it needs one.";

    public static final String JDBC_PASSWORD_CONFIG = "millrace.hadoop.hive.jdbc.password";
    static final String JDBC_PASSWORD_DOC = "The password for the Hive JDBC connection, if it needs one.";

    public static final String DATABASE_CONFIG = "millrace.hadoop.hive.database";
    static final String DATABASE_DOC = "The Hive database the tables are in; empty for the connection's current "
        + "database (default, unless the JDBC URL names another).";

    public static final String TABLE_PREFIX_CONFIG = "millrace.hadoop.hive.table.prefix";
    static final String TABLE_PREFIX_DOC = "Put before every table name made from a topic name (e.g. millrace_ gives "
        + "the topic page-views the table millrace_page_views).";

    public static final String PARTITION_COLUMN_PREFIX_CONFIG = "millrace.hadoop.hive.partition.column.prefix";
    static final String PARTITION_COLUMN_PREFIX_DOC = "Put before the partition columns year, month, day and hour. "
        + "Hive refuses a partition column named like a column of the record, so a topic whose events have a field "
        + "of one of those names needs a prefix (e.g. p_ gives p_year, p_month, p_day, p_hour).";

    public static final String CREATE_TABLES_CONFIG = "millrace.hadoop.hive.create.tables";
    static final String CREATE_TABLES_DOC = "Whether registering partitions first creates the topic's table when it "
        + "does not exist (CREATE EXTERNAL TABLE IF NOT EXISTS, with the latest schema of the subject TOPIC-value "
        + "from schema.registry.url).";

    private static final Validator NAME_OR_EMPTY = Validator.described("letters, digits and _ (or empty)", (name, value) -> {
        String text = (String) value;
        if (!text.isEmpty() && !NAME.matcher(text).matches()) {
            throw new ConfigException(name, value, "Hive names take only letters, digits and _");
        }
    });

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(JDBC_URL_CONFIG, Type.STRING, null, Importance.HIGH, JDBC_URL_DOC)
        .define(JDBC_USER_CONFIG, Type.STRING, null, Importance.MEDIUM, JDBC_USER_DOC)
        .define(JDBC_PASSWORD_CONFIG, Type.STRING, null, Importance.MEDIUM, JDBC_PASSWORD_DOC)
        .define(CREATE_TABLES_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, CREATE_TABLES_DOC)
        .define(DATABASE_CONFIG, Type.STRING, "", NAME_OR_EMPTY, Importance.LOW, DATABASE_DOC)
        .define(TABLE_PREFIX_CONFIG, Type.STRING, "", NAME_OR_EMPTY, Importance.LOW, TABLE_PREFIX_DOC)
        .define(PARTITION_COLUMN_PREFIX_CONFIG, Type.STRING, "", NAME_OR_EMPTY, Importance.LOW, PARTITION_COLUMN_PREFIX_DOC);

    /** What is parsed: the Hive settings, and the loader's own declarations of where it writes. */
    private static final ConfigDef PARSED = withLoaderSettings(CONFIG, LoadConfig.DATA_ROOT_CONFIG, LoadConfig.LAYOUT_CONFIG);

    public HiveConfig(Map<?, ?> props) {
        super(PARSED, props);
    }

    private static ConfigDef withLoaderSettings(ConfigDef own, String... names) {
        ConfigDef parsed = own.copy();
        for (String name : names) {
            ConfigDef.ConfigKey key = LoadConfig.CONFIG.key(name);
            parsed.define(key.name, key.type, key.defaultValue, key.validator, key.importance, key.documentation);
        }
        return parsed;
    }

    /** The loader's data root without a trailing slash; fails when it is not set. */
    public String dataRoot() {
        String root = getString(LoadConfig.DATA_ROOT_CONFIG);
        if (root == null || root.isBlank()) {
            throw new ConfigException("Missing " + LoadConfig.DATA_ROOT_CONFIG
                + ": the directory the loader writes topics under");
        }
        String trimmed = root.trim();
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed;
    }

    /** The JDBC URL, or null when partitions are not to be registered. */
    public String jdbcUrl() {
        String url = getString(JDBC_URL_CONFIG);
        return url == null || url.isBlank() ? null : url.trim();
    }

    public String database() {
        return getString(DATABASE_CONFIG);
    }

    public String tablePrefix() {
        return getString(TABLE_PREFIX_CONFIG);
    }

    public String partitionColumnPrefix() {
        return getString(PARTITION_COLUMN_PREFIX_CONFIG);
    }

    /** How the loader names hour directories ({@value LoadConfig#LAYOUT_CONFIG}), which the partitions point at. */
    public HourLayout layout() {
        return HourLayout.named(getString(LoadConfig.LAYOUT_CONFIG));
    }

    public boolean createTables() {
        return getBoolean(CREATE_TABLES_CONFIG);
    }
}
