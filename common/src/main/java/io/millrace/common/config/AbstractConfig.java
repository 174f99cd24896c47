package io.millrace.common.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsed, validated settings of one component. Subclasses declare their {@link ConfigDef}
 * and add typed getters where they help.
 */
public class AbstractConfig {

    private final Map<String, Object> originals;
    private final Map<String, Object> values;

    protected AbstractConfig(ConfigDef definition, Map<?, ?> originals) {
        Map<String, Object> copy = new HashMap<>();
        originals.forEach((k, v) -> copy.put(String.valueOf(k), v));
        this.originals = Collections.unmodifiableMap(copy);
        this.values = Collections.unmodifiableMap(definition.parse(copy));
    }

    /** The settings as given, declared or not: a component passes its undeclared ones on (e.g. per-topic overrides). */
    public Map<String, Object> originals() {
        return originals;
    }

    /** Every declared setting with its parsed value or default. */
    public Map<String, Object> values() {
        return values;
    }

    public int getInt(String name) {
        return (Integer) get(name);
    }

    public long getLong(String name) {
        return (Long) get(name);
    }

    public double getDouble(String name) {
        return (Double) get(name);
    }

    public boolean getBoolean(String name) {
        return (Boolean) get(name);
    }

    public String getString(String name) {
        return (String) get(name);
    }

    @SuppressWarnings("unchecked")
    public List<String> getList(String name) {
        return (List<String>) get(name);
    }

    protected Object get(String name) {
        if (!values.containsKey(name)) {
            throw new ConfigException("Unknown configuration " + name);
        }
        return values.get(name);
    }
}
