package io.millrace.examples.topn;

import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import java.util.Map;

/** The settings of the top URLs' consumers and producer, in one place. */
final class TopUrlsClients {

    /**
     * How long a reading thread waits for a message before it looks at its partitions and closed windows again,
     * so that windows close while a topic is quiet and a stop is noticed.
     */
    static final int POLL_MS = 200;

    private TopUrlsClients() {
    }

    /**
     * A group consumer that never commits: the counts and the merger's state live in memory, so a new run must
     * read from its start position again rather than resume where the last one stopped.
     */
    static ConsumerConfig consumer(TopUrlsOptions options, String group, boolean fromBeginning) {
        return new ConsumerConfig(Map.of(
            CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers(),
            CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG, options.zookeeperConnect(),
            ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "smallest" : "largest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
            ConsumerConfig.CONSUMER_TIMEOUT_MS_CONFIG, POLL_MS));
    }

    /** The producer of the rankings, which are text (see {@link RankingText}). */
    static Producer<String, String> producer(TopUrlsOptions options) {
        return new MillraceProducer<>(Map.of(
            CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers(),
            CommonClientConfigs.CLIENT_ID_CONFIG, options.groupPrefix()),
            new StringSerializer(), new StringSerializer());
    }
}
