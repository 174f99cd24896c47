package io.millrace.examples.topn;

import io.millrace.examples.generator.Durations;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The options of {@code bin/millrace example top-urls}, Kafka-tool style: {@code --name value}, with
 * {@code --from-beginning} on its own. Every mistake is an {@link IllegalArgumentException} whose message says
 * what is wrong, for the usage error it is.
 */
final class TopUrlsCommandLine {

    static final String USAGE = String.join("\n",
        "Usage: bin/millrace example top-urls --bootstrap-server HOST:PORT --zookeeper HOST:PORT --schema-registry URL",
        "         [--topic page-views] [--window 5m] [--slide 10s] [--lateness 10s] [--top N] [--instances N]",
        "         [--from-beginning] [--group NAME]",
        "  --zookeeper       where the group consumers coordinate",
        "  --topic           the page views to rank (default page-views)",
        "  --window          how much event time a ranking covers (default 5m), a whole number of slides",
        "  --slide           a ranking every this much event time (default 10s)",
        "  --lateness        how long after the slowest partition a view may still come and count (default 10s)",
        "  --top             URLs per ranking (default 10)",
        "  --instances       counting instances sharing the URLs (default 2)",
        "  --from-beginning  count from the earliest page views (default: from the latest)",
        "  --group           the start of the consumer groups' names (default top-urls)",
        "  Rankings go to the topics top-urls-partials and top-urls; the ranking is printed when it changes.",
        "  D: 500ms, 90s, 10m, 3h, 1d or ISO-8601 (PT3H)");

    private static final Set<String> OPTIONS = Set.of("--bootstrap-server", "--zookeeper", "--schema-registry",
        "--topic", "--window", "--slide", "--lateness", "--top", "--instances", "--group");

    private TopUrlsCommandLine() {
    }

    static TopUrlsOptions parse(String[] args) {
        Map<String, String> values = new HashMap<>();
        boolean fromBeginning = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--from-beginning")) {
                fromBeginning = true;
            } else if (!OPTIONS.contains(option)) {
                throw new IllegalArgumentException(option.startsWith("--") ? "Unknown option " + option
                    : "Unexpected argument '" + option + "': options start with --");
            } else if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            } else {
                values.put(option, args[++i]);
            }
        }
        TopUrlsOptions.Builder builder = TopUrlsOptions.builder(required(values, "--bootstrap-server"),
            required(values, "--zookeeper"), required(values, "--schema-registry")).fromBeginning(fromBeginning);
        optional(values, "--topic", builder::topic);
        optional(values, "--window", window -> builder.window(Durations.parse(window)));
        optional(values, "--slide", slide -> builder.slide(Durations.parse(slide)));
        optional(values, "--lateness", lateness -> builder.lateness(Durations.parse(lateness)));
        optional(values, "--top", top -> builder.topN(positive("--top", top)));
        optional(values, "--instances", instances -> builder.instances(positive("--instances", instances)));
        optional(values, "--group", builder::groupPrefix);
        return builder.build();
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

    private static int positive(String option, String value) {
        try {
            int number = Integer.parseInt(value.trim());
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " takes a positive whole number, not '" + value + "'");
    }
}
