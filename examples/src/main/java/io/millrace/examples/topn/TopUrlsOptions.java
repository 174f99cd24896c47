package io.millrace.examples.topn;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link TopUrls} run reads, how it counts and where it writes. Built with
 * {@link #builder(String, String, String)}, which holds the defaults: page views from {@code page-views}, the
 * top 10 over the last 5 minutes sliding every 10 seconds, 10 seconds of allowed lateness, two counting
 * instances, reading from the latest offsets, partial rankings to {@code top-urls-partials} and totals to
 * {@code top-urls}, consumer groups named {@code top-urls-...}. Immutable.
 *
 * @param bootstrapServers  the brokers
 * @param zookeeperConnect  the ZooKeeper the group consumers coordinate through
 * @param schemaRegistryUrl the registry the page views' schemas are read from
 * @param topic             the page views
 * @param window            how much event time a ranking covers
 * @param slide             how often a ranking is made; the window is a whole number of slides
 * @param lateness          how far behind the slowest partition's latest view a view may still come and count
 * @param topN              how many URLs a ranking holds
 * @param instances         how many counting instances share the URLs
 * @param fromBeginning     whether the counting instances start at the earliest offsets (else the latest)
 * @param partialsTopic     where the counting instances publish their rankings
 * @param totalsTopic       where the total ranker publishes the merged ones
 * @param groupPrefix       the start of every consumer group's name
 */
public record TopUrlsOptions(String bootstrapServers, String zookeeperConnect, String schemaRegistryUrl, String topic,
                             Duration window, Duration slide, Duration lateness, int topN, int instances,
                             boolean fromBeginning, String partialsTopic, String totalsTopic, String groupPrefix) {

    public TopUrlsOptions {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(zookeeperConnect, "zookeeperConnect");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        if (slide.toMillis() <= 0 || window.toMillis() % slide.toMillis() != 0 || window.compareTo(slide) < 0) {
            throw new IllegalArgumentException("The window (" + window + ") must be a whole number of slides (" + slide
                + ")");
        }
        if (lateness.isNegative()) {
            throw new IllegalArgumentException("The lateness cannot be negative: " + lateness);
        }
        if (topN < 1 || instances < 1) {
            throw new IllegalArgumentException("The top N and the instances must be positive: " + topN + ", "
                + instances);
        }
    }

    public static Builder builder(String bootstrapServers, String zookeeperConnect, String schemaRegistryUrl) {
        return new Builder(bootstrapServers, zookeeperConnect, schemaRegistryUrl);
    }

    /** The group of counting instance {@code instance} (from 0): each reads every partition, so each has its own. */
    public String countingGroup(int instance) {
        return groupPrefix + "-count-" + (instance + 1);
    }

    public String totalGroup() {
        return groupPrefix + "-total";
    }

    /** Collects the options; every setter returns the builder. */
    public static final class Builder {
        private final String bootstrapServers;
        private final String zookeeperConnect;
        private final String schemaRegistryUrl;
        private String topic = "page-views";
        private Duration window = Duration.ofMinutes(5);
        private Duration slide = Duration.ofSeconds(10);
        private Duration lateness = Duration.ofSeconds(10);
        private int topN = 10;
        private int instances = 2;
        private boolean fromBeginning;
        private String partialsTopic = "top-urls-partials";
        private String totalsTopic = "top-urls";
        private String groupPrefix = "top-urls";

        private Builder(String bootstrapServers, String zookeeperConnect, String schemaRegistryUrl) {
            this.bootstrapServers = bootstrapServers;
            this.zookeeperConnect = zookeeperConnect;
            this.schemaRegistryUrl = schemaRegistryUrl;
        }

        public Builder topic(String topic) {
            this.topic = topic;
            return this;
        }

        public Builder window(Duration window) {
            this.window = window;
            return this;
        }

        public Builder slide(Duration slide) {
            this.slide = slide;
            return this;
        }

        public Builder lateness(Duration lateness) {
            this.lateness = lateness;
            return this;
        }

        public Builder topN(int topN) {
            this.topN = topN;
            return this;
        }

        public Builder instances(int instances) {
            this.instances = instances;
            return this;
        }

        public Builder fromBeginning(boolean fromBeginning) {
            this.fromBeginning = fromBeginning;
            return this;
        }

        public Builder partialsTopic(String partialsTopic) {
            this.partialsTopic = partialsTopic;
            return this;
        }

        public Builder totalsTopic(String totalsTopic) {
            this.totalsTopic = totalsTopic;
            return this;
        }

        public Builder groupPrefix(String groupPrefix) {
            this.groupPrefix = groupPrefix;
            return this;
        }

        public TopUrlsOptions build() {
            return new TopUrlsOptions(bootstrapServers, zookeeperConnect, schemaRegistryUrl, topic, window, slide,
                lateness, topN, instances, fromBeginning, partialsTopic, totalsTopic, groupPrefix);
        }
    }
}
