package io.millrace.examples.generator;

import io.millrace.common.utils.Time;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends front-end events to a cluster as several simulated front-end hosts would: events drawn from
 * {@link FrontEndTraffic}, each from a host picked at random, through that host's
 * {@link io.millrace.producer.avro.AvroEventProducer} and, with auditing on, counted by the producer tier of
 * the audit. What {@code bin/millrace event-generator} runs, and what a demo or a benchmark calls:
 *
 * <pre>{@code
 * GenerationSummary summary = EventGenerator.run(GeneratorOptions.builder(bootstrap, registryUrl)
 *     .events(3_000).timeSpread(Duration.ofHours(3)).seed(42L).build(), System.out);
 * }</pre>
 *
 * <p>With a time spread, event {@code i} happens {@code spread * (1 - progress)} before it is sent, where
 * progress runs from 0 to 1 over the run: the times sweep the spread from its start to now, never ahead of
 * the clock, and rise steadily so that audit windows close in order. Events are drawn on the calling thread;
 * progress lines come from a thread of their own. {@link #stop()} may be called from any thread.
 */
public final class EventGenerator {

    private static final Logger LOG = LoggerFactory.getLogger(EventGenerator.class);

    private final GeneratorOptions options;
    private final Time time;
    private volatile boolean stopped;

    public EventGenerator(GeneratorOptions options) {
        this(options, Time.SYSTEM);
    }

    EventGenerator(GeneratorOptions options, Time time) {
        this.options = options;
        this.time = time;
    }

    /** Runs {@code options} to the end, printing progress and the summary to {@code out}. */
    public static GenerationSummary run(GeneratorOptions options, PrintStream out) throws InterruptedException {
        return new EventGenerator(options).run(out);
    }

    /**
     * Creates the topics that do not exist yet, sends the events, closes the hosts' producers (waiting for every
     * answer) and their audit publishers (publishing the last counts), prints the summary to {@code out} and
     * returns it.
     *
     * @throws io.millrace.common.errors.MillraceException when the cluster cannot be reached, or a missing topic
     *         cannot be created: nothing was sent
     */
    public GenerationSummary run(PrintStream out) throws InterruptedException {
        for (String created : TopicPreparation.ensureExist(options)) {
            out.println("Created the topic " + created + " with the broker's default partition count");
        }
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= options.hosts(); i++) {
            names.add(GeneratorOptions.hostName(i));
        }
        DeliveryTally tally = new DeliveryTally(options.topics(), names);
        long startMs = time.milliseconds();
        long startNanos = time.nanoseconds();
        out.printf(Locale.ROOT, "Sending %s to %s from %d hosts (%s), %s%n", options.length(),
            options.topics().stream().map(EventTopic::topic).collect(Collectors.joining(", ")), options.hosts(),
            String.join(", ", names), options.audit() ? "audited in cluster " + options.cluster() : "without auditing");
        List<FrontEndHost> hosts = new ArrayList<>();
        try (ProgressReporter progress = ProgressReporter.start(tally, out, options.progressInterval(), time)) {
            try {
                names.forEach(name -> hosts.add(FrontEndHost.start(name, options)));
                sendAll(hosts, tally, startNanos);
            } finally {
                closeAll(hosts);
            }
        }
        GenerationSummary summary = tally.summary(startMs, (time.nanoseconds() - startNanos) / 1_000_000);
        summary.print(out);
        return summary;
    }

    /** Ends the run after the event being sent; what was sent is still waited for and summed up. */
    public void stop() {
        stopped = true;
    }

    private void sendAll(List<FrontEndHost> hosts, DeliveryTally tally, long startNanos) {
        Random random = options.seed() == null ? new Random() : new Random(options.seed());
        FrontEndTraffic traffic = new FrontEndTraffic(SiteCatalog.standard(), options.topics(), random);
        Pacer pacer = new Pacer(options.ratePerSecond(), time);
        long spreadMs = options.timeSpread().toMillis();
        for (long sent = 0; !isOver(sent, startNanos); sent++) {
            pacer.awaitTurn(sent);
            if (isOver(sent, startNanos)) {
                return;
            }
            double progress = options.length().progress(sent, time.nanoseconds() - startNanos);
            long eventTimeMs = time.milliseconds() - Math.round(spreadMs * (1 - progress));
            send(hosts.get(random.nextInt(hosts.size())), traffic.next(eventTimeMs), eventTimeMs, tally);
        }
    }

    private boolean isOver(long sent, long startNanos) {
        return stopped || Thread.currentThread().isInterrupted()
            || options.length().isOver(sent, time.nanoseconds() - startNanos);
    }

    private static void send(FrontEndHost host, FrontEndTraffic.Event event, long eventTimeMs, DeliveryTally tally) {
        String topic = event.topic().topic();
        tally.sent(topic, host.name(), eventTimeMs);
        try {
            host.send(event, (metadata, error) -> {
                if (error == null) {
                    tally.acknowledged(topic, host.name(), eventTimeMs);
                } else {
                    LOG.debug("An event to {} from {} failed: {}", topic, host.name(), error.toString());
                    tally.failed(topic, host.name(), error);
                }
            });
        } catch (RuntimeException e) {   // refused before it was queued: not serializable, or the producer closed
            LOG.debug("An event to {} from {} was refused: {}", topic, host.name(), e.toString());
            tally.failed(topic, host.name(), e);
        }
    }

    private static void closeAll(List<FrontEndHost> hosts) {
        for (FrontEndHost host : hosts) {
            try {
                host.close();
            } catch (RuntimeException e) {
                LOG.warn("Closing host {} failed: {}", host.name(), e.toString());
            }
        }
    }
}
