package io.millrace.examples.pipeline;

import io.millrace.examples.generator.EventGenerator;
import io.millrace.examples.generator.EventTopic;
import io.millrace.examples.generator.GenerationSummary;
import io.millrace.examples.generator.GeneratorOptions;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** The demo's front-end traffic: the event generator in each live data centre at once, three hosts each. */
final class FrontEnds {

    private FrontEnds() {
    }

    /**
     * Sends {@code eventsPerDc} events into each of {@code live} at once, their times spread over
     * {@link PipelineDemo#TIME_SPREAD}; each data centre's progress lines go to {@code out} under its name.
     *
     * @return the events the live clusters acknowledged
     */
    static long send(List<DataCentre> live, List<String> topics, long eventsPerDc, PrintStream out) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(live.size());
        try {
            List<Future<GenerationSummary>> runs = new ArrayList<>();
            for (DataCentre dc : live) {
                GeneratorOptions options = GeneratorOptions.builder(dc.bootstrapServers(), dc.registryUrl())
                    .topics(topics.stream().map(EventTopic::of).toList()).events(eventsPerDc)
                    .timeSpread(PipelineDemo.TIME_SPREAD).hosts(3).cluster(dc.name()).application("frontend-" + dc.name())
                    .progressInterval(Duration.ofSeconds(5)).build();
                PrintStream prefixed = new PrintStream(new LinePrefix(dc.name() + " | ", out), true, StandardCharsets.UTF_8);
                runs.add(pool.submit(() -> EventGenerator.run(options, prefixed)));
            }
            long acknowledged = 0;
            for (Future<GenerationSummary> run : runs) {
                acknowledged += run.get().total().acknowledged();
            }
            return acknowledged;
        } finally {
            pool.shutdownNow();
        }
    }
}
