package io.millrace.common.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The declaration of a component's settings: each has a name (Kafka's where the meaning is the
 * same, units in the name), a type, a default, an optional validator, an importance and a doc
 * string. A component declares its settings once, in its {@code XxxConfig} class; parsing,
 * validation at startup and the generated documentation all read that declaration.
 */
public final class ConfigDef {

    /** Marks a setting that has no default and so must be given. */
    public static final Object NO_DEFAULT = new Object() {
        @Override
        public String toString() {
            return "(required)";
        }
    };

    public enum Type { BOOLEAN, STRING, INT, LONG, DOUBLE, LIST }

    public enum Importance { HIGH, MEDIUM, LOW }

    /**
     * Checks a parsed value; throws {@link ConfigException} naming the setting. Its
     * {@code toString()} is what the docs show as the valid values, so a lambda should be
     * wrapped with {@link #described}.
     */
    public interface Validator {
        void ensureValid(String name, Object value);

        /** A Java regular expression (a topic whitelist, say); an empty string passes. */
        static Validator regex() {
            return described("a Java regular expression", (name, value) -> {
                try {
                    java.util.regex.Pattern.compile((String) value);
                } catch (java.util.regex.PatternSyntaxException e) {
                    throw new ConfigException(name, value, "not a regular expression: " + e.getDescription());
                }
            });
        }

        /** A validator whose valid values read as {@code description} in the docs. */
        static Validator described(String description, Validator check) {
            return new Validator() {
                @Override
                public void ensureValid(String name, Object value) {
                    check.ensureValid(name, value);
                }

                @Override
                public String toString() {
                    return description;
                }
            };
        }
    }

    /** One declared setting. */
    public static final class ConfigKey {
        public final String name;
        public final Type type;
        public final Object defaultValue;
        public final Validator validator;
        public final Importance importance;
        public final String documentation;

        ConfigKey(String name, Type type, Object defaultValue, Validator validator, Importance importance, String doc) {
            this.name = name;
            this.type = type;
            this.defaultValue = defaultValue;
            this.validator = validator;
            this.importance = importance;
            this.documentation = doc;
        }

        public boolean hasDefault() {
            return defaultValue != NO_DEFAULT;
        }
    }

    private final Map<String, ConfigKey> keys = new LinkedHashMap<>();

    public ConfigDef define(String name, Type type, Object defaultValue, Validator validator,
                            Importance importance, String doc) {
        if (keys.containsKey(name)) {
            throw new IllegalStateException("Configuration " + name + " is defined twice");
        }
        if (validator != null && validator.getClass().isSynthetic()) {
            throw new IllegalArgumentException("Validator of " + name + " is a lambda with no description for the docs; "
                + "wrap it with Validator.described");
        }
        Object parsedDefault = defaultValue == NO_DEFAULT || defaultValue == null ? defaultValue : parseValue(name, type, defaultValue);
        if (validator != null && parsedDefault != NO_DEFAULT && parsedDefault != null) {
            validator.ensureValid(name, parsedDefault);
        }
        keys.put(name, new ConfigKey(name, type, parsedDefault, validator, importance, doc));
        return this;
    }

    public ConfigDef define(String name, Type type, Object defaultValue, Importance importance, String doc) {
        return define(name, type, defaultValue, null, importance, doc);
    }

    /** A copy of this definition to which a component can add its own settings. */
    public ConfigDef copy() {
        ConfigDef copy = new ConfigDef();
        copy.keys.putAll(keys);
        return copy;
    }

    public Collection<ConfigKey> keys() {
        return Collections.unmodifiableCollection(keys.values());
    }

    public ConfigKey key(String name) {
        return keys.get(name);
    }

    /**
     * Parses and validates the declared settings from {@code props} (string or typed values),
     * filling in defaults. Settings that are not declared are left to the caller.
     */
    public Map<String, Object> parse(Map<?, ?> props) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConfigKey key : keys.values()) {
            Object raw = props.get(key.name);
            Object value;
            if (raw != null) {
                value = parseValue(key.name, key.type, raw);
            } else if (key.hasDefault()) {
                value = key.defaultValue;
            } else {
                throw new ConfigException("Missing required configuration " + key.name + ", which has no default");
            }
            if (key.validator != null && value != null) {
                key.validator.ensureValid(key.name, value);
            }
            values.put(key.name, value);
        }
        return values;
    }

    static Object parseValue(String name, Type type, Object value) {
        if (value instanceof String) {
            return parseString(name, type, ((String) value).trim());
        }
        switch (type) {
            case BOOLEAN: return expect(name, value, Boolean.class);
            case STRING: return expect(name, value, String.class);
            case INT: return expect(name, value, Integer.class);
            case LONG: return value instanceof Integer ? Long.valueOf((Integer) value) : expect(name, value, Long.class);
            case DOUBLE: return value instanceof Number ? ((Number) value).doubleValue() : expect(name, value, Double.class);
            case LIST: return value instanceof List ? List.copyOf((List<?>) value) : expect(name, value, List.class);
            default: throw new IllegalStateException("Unknown type " + type);
        }
    }

    private static Object parseString(String name, Type type, String s) {
        try {
            switch (type) {
                case BOOLEAN: return parseBoolean(name, s);
                case STRING: return s;
                case INT: return Integer.parseInt(s);
                case LONG: return Long.parseLong(s);
                case DOUBLE: return Double.parseDouble(s);
                case LIST: return s.isEmpty() ? List.of() : List.copyOf(Arrays.asList(s.split("\\s*,\\s*")));
                default: throw new IllegalStateException("Unknown type " + type);
            }
        } catch (NumberFormatException e) {
            throw new ConfigException(name, s, "not a number of type " + type.name().toLowerCase(Locale.ROOT));
        }
    }

    private static Boolean parseBoolean(String name, String s) {
        if (s.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        if (s.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
        }
        throw new ConfigException(name, s, "expected true or false");
    }

    private static <T> T expect(String name, Object value, Class<T> type) {
        if (!type.isInstance(value)) {
            throw new ConfigException(name, value, "expected a " + type.getSimpleName());
        }
        return type.cast(value);
    }

    /** Accepts numbers within [min, max]; either bound may be null. */
    public static final class Range implements Validator {
        private final Number min;
        private final Number max;

        private Range(Number min, Number max) {
            this.min = min;
            this.max = max;
        }

        public static Range atLeast(Number min) {
            return new Range(min, null);
        }

        public static Range between(Number min, Number max) {
            return new Range(min, max);
        }

        @Override
        public void ensureValid(String name, Object value) {
            double v = ((Number) value).doubleValue();
            if (min != null && v < min.doubleValue()) {
                throw new ConfigException(name, value, "must be at least " + min);
            }
            if (max != null && v > max.doubleValue()) {
                throw new ConfigException(name, value, "must be at most " + max);
            }
        }

        @Override
        public String toString() {
            if (max == null) {
                return "[" + min + ",...]";
            }
            return "[" + min + ",...," + max + "]";
        }
    }

    /** Accepts one of a fixed set of strings. */
    public static final class ValidString implements Validator {
        private final List<String> allowed;

        private ValidString(List<String> allowed) {
            this.allowed = allowed;
        }

        public static ValidString in(String... allowed) {
            return new ValidString(List.of(allowed));
        }

        @Override
        public void ensureValid(String name, Object value) {
            if (!allowed.contains(value)) {
                throw new ConfigException(name, value, "must be one of " + allowed);
            }
        }

        @Override
        public String toString() {
            return String.join(", ", allowed);
        }
    }

    /** The settings as a Markdown table: name, type, default, valid values, importance, description. */
    public String toMarkdownTable() {
        StringBuilder out = new StringBuilder();
        out.append("| name | type | default | valid values | importance | description |\n");
        out.append("| --- | --- | --- | --- | --- | --- |\n");
        for (ConfigKey key : sortedKeys()) {
            out.append("| `").append(key.name).append("` | ").append(key.type.name().toLowerCase(Locale.ROOT))
                .append(" | ").append(displayDefault(key)).append(" | ")
                .append(key.validator == null ? "" : key.validator.toString()).append(" | ")
                .append(key.importance.name().toLowerCase(Locale.ROOT)).append(" | ")
                .append(key.documentation.replace('\n', ' ').replace("|", "\\|")).append(" |\n");
        }
        return out.toString();
    }

    /** The settings as a commented properties file, every setting at its default. */
    public String toPropertiesFile() {
        StringBuilder out = new StringBuilder();
        for (ConfigKey key : sortedKeys()) {
            for (String line : wrap(key.documentation, 95)) {
                out.append("# ").append(line).append('\n');
            }
            out.append("# type: ").append(key.type.name().toLowerCase(Locale.ROOT));
            if (key.validator != null) {
                out.append(", valid values: ").append(key.validator);
            }
            out.append(", importance: ").append(key.importance.name().toLowerCase(Locale.ROOT)).append('\n');
            String value = key.hasDefault() && key.defaultValue != null ? render(key.defaultValue) : "";
            out.append(key.hasDefault() ? "#" : "").append(key.name).append('=').append(value).append("\n\n");
        }
        return out.toString();
    }

    private List<ConfigKey> sortedKeys() {
        List<ConfigKey> sorted = new ArrayList<>(keys.values());
        sorted.sort((a, b) -> a.importance != b.importance ? a.importance.compareTo(b.importance) : a.name.compareTo(b.name));
        return sorted;
    }

    private static String displayDefault(ConfigKey key) {
        if (!key.hasDefault()) {
            return "(required)";
        }
        return key.defaultValue == null ? "null" : "`" + render(key.defaultValue) + "`";
    }

    private static String render(Object value) {
        if (value instanceof List) {
            return String.join(",", ((List<?>) value).stream().map(String::valueOf).toArray(String[]::new));
        }
        return String.valueOf(value);
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split("\\s+")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }
}
