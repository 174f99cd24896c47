package io.millrace.examples.generator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The options of {@code bin/millrace event-generator}, Kafka-tool style: {@code --name value}, with
 * {@code --producer-property key=value} repeatable and {@code --no-audit} on its own. Every mistake is an
 * {@link IllegalArgumentException} whose message says what is wrong, for the usage error it is.
 */
final class GeneratorCommandLine {

    static final String USAGE = String.join("\n",
        "Usage: bin/millrace event-generator --bootstrap-server HOST:PORT --schema-registry URL",
        "         [--topics page-views,searches,service-calls] [--rate N/s] [--events N | --duration D]",
        "         [--time-spread D] [--hosts N] [--seed N] [--cluster NAME] [--application NAME] [--no-audit]",
        "         [--producer-property key=value ...]",
        "  --rate          events per second from all hosts together (default: as fast as the producers take them)",
        "  --events        how many events to send (default " + GeneratorOptions.DEFAULT_EVENTS + ")",
        "  --duration      send for this long instead",
        "  --time-spread   event times sweep from this long ago to now (default 0: each at the time it is sent)",
        "  --hosts         simulated front-ends frontend-1..N, each with its own producer and audit counts (default "
            + GeneratorOptions.DEFAULT_HOSTS + ")",
        "  --seed          the same seed draws the same events (default: random)",
        "  --cluster       audit.cluster of the counts (default " + GeneratorOptions.DEFAULT_CLUSTER + ")",
        "  --application   audit.application of the counts and the producers' client.id (default "
            + GeneratorOptions.DEFAULT_APPLICATION + ")",
        "  --no-audit      do not count what is sent in the audit topic",
        "  --producer-property  a setting of every host's producer, audit.* ones for its audit publisher",
        "                  (e.g. audit.window.ms=60000)",
        "  D: 500ms, 90s, 10m, 3h, 1d or ISO-8601 (PT3H)");

    private static final Set<String> OPTIONS = Set.of("--bootstrap-server", "--schema-registry", "--topics", "--rate",
        "--events", "--duration", "--time-spread", "--hosts", "--seed", "--cluster", "--application",
        "--producer-property");

    private GeneratorCommandLine() {
    }

    /** The options {@code args} give. */
    static GeneratorOptions parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        List<String> properties = new ArrayList<>();
        boolean audit = true;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--no-audit")) {
                audit = false;
            } else if (!OPTIONS.contains(option)) {
                throw new IllegalArgumentException(option.startsWith("--") ? "Unknown option " + option
                    : "Unexpected argument '" + option + "': options start with --");
            } else if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            } else if (option.equals("--producer-property")) {
                properties.add(args[++i]);
            } else {
                values.put(option, args[++i]);
            }
        }
        GeneratorOptions.Builder builder = GeneratorOptions.builder(required(values, "--bootstrap-server"),
            required(values, "--schema-registry")).audit(audit);
        runLength(values, builder);
        optional(values, "--topics", topics -> builder.topics(EventTopic.list(topics)));
        optional(values, "--rate", rate -> builder.ratePerSecond(rate(rate)));
        optional(values, "--time-spread", spread -> builder.timeSpread(Durations.parse(spread)));
        optional(values, "--hosts", hosts -> builder.hosts((int) positive("--hosts", hosts, Integer.MAX_VALUE)));
        optional(values, "--seed", seed -> builder.seed(number("--seed", seed)));
        optional(values, "--cluster", builder::cluster);
        optional(values, "--application", builder::application);
        for (String property : properties) {
            int eq = property.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--producer-property takes key=value, not '" + property + "'");
            }
            builder.producerProperty(property.substring(0, eq).trim(), property.substring(eq + 1).trim());
        }
        return builder.build();
    }

    private static void runLength(Map<String, String> values, GeneratorOptions.Builder builder) {
        if (values.containsKey("--events") && values.containsKey("--duration")) {
            throw new IllegalArgumentException("Give --events or --duration, not both");
        }
        optional(values, "--events", events -> builder.events(positive("--events", events, Long.MAX_VALUE)));
        optional(values, "--duration", duration -> builder.duration(Durations.parse(duration)));
    }

    private static String required(Map<String, String> values, String option) {
        String value = values.get(option);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " is required");
        }
        return value;
    }

    private static void optional(Map<String, String> values, String option, Consumer<String> apply) {
        String value = values.get(option);
        if (value != null) {
            apply.accept(value);
        }
    }

    /** Events per second: {@code 500} or {@code 500/s}. */
    static double rate(String value) {
        String number = value.trim().toLowerCase(Locale.ROOT);
        if (number.endsWith("/s")) {
            number = number.substring(0, number.length() - 2);
        }
        try {
            double rate = Double.parseDouble(number);
            if (rate > 0 && !Double.isInfinite(rate)) {
                return rate;
            }
        } catch (NumberFormatException e) {
            // said below, as for a rate that is not positive
        }
        throw new IllegalArgumentException("--rate takes a positive number of events per second, not '" + value + "'");
    }

    private static long positive(String option, String value, long max) {
        long number = number(option, value);
        if (number <= 0 || number > max) {
            throw new IllegalArgumentException(option + " must be a positive number up to " + max + ", not " + value);
        }
        return number;
    }

    private static long number(String option, String value) {
        try {
            return Long.parseLong(value.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, not '" + value + "'");
        }
    }
}
