package io.millrace.consumer.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a tool: {@code --name value} options (repeatable ones keep every value) and
 * {@code --flag}s, checked against what the tool declares so that a typo fails loudly.
 */
final class ToolArgs {

    private final Map<String, List<String>> options = new HashMap<>();
    private final Set<String> flags = new HashSet<>();

    /** Thrown for a command line the tool cannot run; the message is for the user. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    ToolArgs(String[] args, Set<String> knownOptions, Set<String> knownFlags) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (knownFlags.contains(arg)) {
                flags.add(arg);
            } else if (knownOptions.contains(arg)) {
                if (i + 1 >= args.length) {
                    throw new UsageException(arg + " needs a value");
                }
                options.computeIfAbsent(arg, k -> new ArrayList<>()).add(args[++i]);
            } else {
                throw new UsageException("Unknown argument " + arg);
            }
        }
    }

    boolean has(String flag) {
        return flags.contains(flag) || options.containsKey(flag);
    }

    String get(String option) {
        List<String> values = options.get(option);
        return values == null ? null : values.get(values.size() - 1);
    }

    String require(String option) {
        String value = get(option);
        if (value == null) {
            throw new UsageException(option + " is required");
        }
        return value;
    }

    long getLong(String option, long defaultValue) {
        String value = get(option);
        try {
            return value == null ? defaultValue : Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes a number, not " + value);
        }
    }

    /** Every {@code key=value} given with a repeatable option. */
    Map<String, String> properties(String option) {
        Map<String, String> properties = new HashMap<>();
        for (String pair : options.getOrDefault(option, List.of())) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException(option + " takes key=value, not " + pair);
            }
            properties.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return properties;
    }
}
