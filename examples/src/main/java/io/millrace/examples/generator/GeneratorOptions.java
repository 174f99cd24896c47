package io.millrace.examples.generator;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an {@link EventGenerator} run sends, where, and how fast. Built with {@link #builder(String, String)},
 * which holds the defaults: the three topics, 10,000 events, no rate limit, every event at the time it is
 * sent, three hosts, a random seed, auditing on under cluster {@code dc1} and application
 * {@code event-generator}, progress every two seconds. Immutable.
 *
 * @param bootstrapServers   the brokers to send to
 * @param schemaRegistryUrl  the registry the event schemas are registered with (on first use, unless the
 *                           producer properties say {@code auto.register.schemas=false})
 * @param topics             the topics to send to, each with the event it holds
 * @param ratePerSecond      events per second from all hosts together; 0 for as fast as the producers take them
 * @param length             how many events, or for how long
 * @param timeSpread         the events' times sweep from this long ago to now over the run; zero: each is sent at once
 * @param hosts              how many front-end hosts to simulate, each with its own producer and audit counts
 * @param seed               the seed of the events' randomness; null for a different run every time
 * @param cluster            the audit's {@code audit.cluster}, the data centre the hosts are in
 * @param application        the audit's {@code audit.application}
 * @param audit              whether every host counts what it sent in the audit topic (the producer tier)
 * @param producerProperties more settings of every host's producer and audit publisher ({@code audit.*} ones
 *                           for the publisher, e.g. {@code audit.window.ms})
 * @param progressInterval   how often a progress line is printed
 */
public record GeneratorOptions(String bootstrapServers, String schemaRegistryUrl, List<EventTopic> topics,
                               double ratePerSecond, RunLength length, Duration timeSpread, int hosts, Long seed,
                               String cluster, String application, boolean audit, Map<String, String> producerProperties,
                               Duration progressInterval) {

    public static final long DEFAULT_EVENTS = 10_000;
    public static final int DEFAULT_HOSTS = 3;
    public static final String DEFAULT_CLUSTER = "dc1";
    public static final String DEFAULT_APPLICATION = "event-generator";

    public GeneratorOptions {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(length, "length");
        topics = List.copyOf(topics);
        producerProperties = Map.copyOf(producerProperties);
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("At least one topic is needed");
        }
        if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("The rate must be a positive number of events per second, not "
                + ratePerSecond);
        }
        if (timeSpread.isNegative()) {
            throw new IllegalArgumentException("The time spread cannot be negative: " + timeSpread);
        }
        if (hosts < 1) {
            throw new IllegalArgumentException("At least one host is needed, not " + hosts);
        }
        if (progressInterval.isZero() || progressInterval.isNegative()) {
            throw new IllegalArgumentException("The progress interval must be positive, not " + progressInterval);
        }
    }

    /** The name of front-end host {@code i}, from 1. */
    public static String hostName(int i) {
        return "frontend-" + i;
    }

    public static Builder builder(String bootstrapServers, String schemaRegistryUrl) {
        return new Builder(bootstrapServers, schemaRegistryUrl);
    }

    /** Collects the options, with the defaults for those not given. Not thread-safe. */
    public static final class Builder {
        private final String bootstrapServers;
        private final String schemaRegistryUrl;
        private List<EventTopic> topics = List.of(EventTopic.values());
        private double ratePerSecond;
        private RunLength length = RunLength.ofEvents(DEFAULT_EVENTS);
        private Duration timeSpread = Duration.ZERO;
        private int hosts = DEFAULT_HOSTS;
        private Long seed;
        private String cluster = DEFAULT_CLUSTER;
        private String application = DEFAULT_APPLICATION;
        private boolean audit = true;
        private final Map<String, String> producerProperties = new LinkedHashMap<>();
        private Duration progressInterval = Duration.ofSeconds(2);

        private Builder(String bootstrapServers, String schemaRegistryUrl) {
            this.bootstrapServers = bootstrapServers;
            this.schemaRegistryUrl = schemaRegistryUrl;
        }

        public Builder topics(List<EventTopic> topics) {
            this.topics = topics;
            return this;
        }

        public Builder ratePerSecond(double ratePerSecond) {
            this.ratePerSecond = ratePerSecond;
            return this;
        }

        public Builder events(long events) {
            this.length = RunLength.ofEvents(events);
            return this;
        }

        public Builder duration(Duration duration) {
            this.length = RunLength.ofDuration(duration);
            return this;
        }

        public Builder timeSpread(Duration timeSpread) {
            this.timeSpread = timeSpread;
            return this;
        }

        public Builder hosts(int hosts) {
            this.hosts = hosts;
            return this;
        }

        public Builder seed(Long seed) {
            this.seed = seed;
            return this;
        }

        public Builder cluster(String cluster) {
            this.cluster = cluster;
            return this;
        }

        public Builder application(String application) {
            this.application = application;
            return this;
        }

        public Builder audit(boolean audit) {
            this.audit = audit;
            return this;
        }

        /** One more producer setting; a later value for the same key replaces an earlier one. */
        public Builder producerProperty(String key, String value) {
            producerProperties.put(key, value);
            return this;
        }

        public Builder progressInterval(Duration progressInterval) {
            this.progressInterval = progressInterval;
            return this;
        }

        public GeneratorOptions build() {
            return new GeneratorOptions(bootstrapServers, schemaRegistryUrl, topics, ratePerSecond, length, timeSpread,
                hosts, seed, cluster, application, audit, producerProperties, progressInterval);
        }
    }
}
