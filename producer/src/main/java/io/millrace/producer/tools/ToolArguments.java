package io.millrace.producer.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --name value} options of a command line, where an option may repeat (each
 * {@code --property k=v}) and {@code --producer-props} takes every following {@code k=v}.
 */
final class ToolArguments {

    private final Map<String, List<String>> options = new HashMap<>();

    private ToolArguments() {
    }

    static ToolArguments parse(String[] args, String multiValued) {
        ToolArguments parsed = new ToolArguments();
        String current = null;
        for (String arg : args) {
            if (arg.startsWith("--")) {
                current = arg.substring(2);
                parsed.options.computeIfAbsent(current, k -> new ArrayList<>());
            } else if (current == null) {
                throw new IllegalArgumentException("Unexpected argument " + arg + ": options start with --");
            } else {
                parsed.options.get(current).add(arg);
                if (!current.equals(multiValued)) {
                    current = null;
                }
            }
        }
        return parsed;
    }

    boolean has(String name) {
        return options.containsKey(name);
    }

    String get(String name, String fallback) {
        List<String> values = options.get(name);
        return values == null || values.isEmpty() ? fallback : values.get(values.size() - 1);
    }

    String require(String name) {
        String value = get(name, null);
        if (value == null) {
            throw new IllegalArgumentException("Missing --" + name);
        }
        return value;
    }

    /** Every {@code k=v} given to the option, as a map. */
    Map<String, String> keyValues(String name) {
        Map<String, String> result = new HashMap<>();
        for (String pair : options.getOrDefault(name, List.of())) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--" + name + " takes key=value, not " + pair);
            }
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return result;
    }
}
