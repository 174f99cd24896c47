package io.millrace.hadoop.hive;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import io.millrace.common.config.ConfigDef.Validator;
import io.millrace.common.config.ConfigException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The settings of the Hive tables over loaded topics: where the data is, how tables and partition
 * columns are named, and the JDBC connection partitions are registered through. They sit in the load's
 * configuration next to the loader's own settings ({@code schema.registry.url} included, which the DDL
 * reads the topic's schema with). Immutable and thread-safe.
 */
public final class HiveConfig extends AbstractConfig {

    /** Hive's rule for table, database and column names: word characters only. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

    public static final String DATA_ROOT_CONFIG = "millrace.hadoop.data.root";
    static final String DATA_ROOT_DOC = "The directory the loader writes topics under, as a Hadoop filesystem URI "
        + "(hdfs://namenode:8020/data/millrace, file:///data/millrace). A topic's table is located at "
        + "DATA-ROOT/TOPIC/hourly.";

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

    public static final String PARTITION_LAYOUT_CONFIG = "millrace.hadoop.hive.partition.layout";
    static final String PARTITION_LAYOUT_DOC = "How the loader names an hour's directory under DATA-ROOT/TOPIC/hourly, "
        + "so that each partition points at it: hive for year=yyyy/month=MM/day=dd/hour=HH, plain for yyyy/MM/dd/HH. "
        + "Must match what the loader writes.";

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
        .define(DATA_ROOT_CONFIG, Type.STRING, null, Importance.HIGH, DATA_ROOT_DOC)
        .define(JDBC_URL_CONFIG, Type.STRING, null, Importance.HIGH, JDBC_URL_DOC)
        .define(JDBC_USER_CONFIG, Type.STRING, null, Importance.MEDIUM, JDBC_USER_DOC)
        .define(JDBC_PASSWORD_CONFIG, Type.STRING, null, Importance.MEDIUM, JDBC_PASSWORD_DOC)
        .define(PARTITION_LAYOUT_CONFIG, Type.STRING, "hive", ValidString.in("hive", "plain"), Importance.MEDIUM,
            PARTITION_LAYOUT_DOC)
        .define(CREATE_TABLES_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, CREATE_TABLES_DOC)
        .define(DATABASE_CONFIG, Type.STRING, "", NAME_OR_EMPTY, Importance.LOW, DATABASE_DOC)
        .define(TABLE_PREFIX_CONFIG, Type.STRING, "", NAME_OR_EMPTY, Importance.LOW, TABLE_PREFIX_DOC)
        .define(PARTITION_COLUMN_PREFIX_CONFIG, Type.STRING, "", NAME_OR_EMPTY, Importance.LOW, PARTITION_COLUMN_PREFIX_DOC);

    public HiveConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    /** The data root without a trailing slash; fails when it is not set. */
    public String dataRoot() {
        String root = getString(DATA_ROOT_CONFIG);
        if (root == null || root.isBlank()) {
            throw new ConfigException("Missing " + DATA_ROOT_CONFIG + ": the directory the loader writes topics under");
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

    public HourLayout layout() {
        return HourLayout.valueOf(getString(PARTITION_LAYOUT_CONFIG).toUpperCase(Locale.ROOT));
    }

    public boolean createTables() {
        return getBoolean(CREATE_TABLES_CONFIG);
    }
}
