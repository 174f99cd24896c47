package io.millrace.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The command line every Millrace server takes, as Kafka's do:
 * {@code [--config FILE] [--override key=value ...]}. The file's properties come first, the
 * overrides on top, whatever their order on the line.
 */
public final class ServerArguments {

    private ServerArguments() {
    }

    /**
     * The properties from the file and the overrides; null when {@code -h} or {@code --help} was
     * given. Throws {@link IllegalArgumentException}, with a message fit for the user, on an
     * unknown option or a missing value.
     */
    public static Properties parse(String[] args) throws IOException {
        Properties props = new Properties();
        Properties overrides = new Properties();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--config" -> load(props, Path.of(required(args[i], value)));
                case "--override" -> override(overrides, required(args[i], value));
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("Unknown option " + args[i]);
            }
            i++;
        }
        props.putAll(overrides);
        return props;
    }

    private static void load(Properties props, Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        }
    }

    private static void override(Properties overrides, String keyValue) {
        int eq = keyValue.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--override needs key=value, not " + keyValue);
        }
        overrides.setProperty(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1).trim());
    }

    private static String required(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }
}
