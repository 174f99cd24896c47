package io.millrace.examples.topn;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerIterator;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.ConsumerTimeoutException;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The total ranker (Storm's total ranker, one for the whole application): a group consumer of the partials
 * topic that hands every instance's partial ranking to a {@link RankingMerger} and, once every instance has
 * ranked a window, publishes the merged ranking to the totals topic and tells its listener.
 *
 * <p>It reads the partials from where the partials topic ended when it started, before any counting instance of
 * the run starts: a run merges its own instances' rankings only, never an earlier run's, and misses none. It
 * never commits, for the same reason. Thread-safe to {@link #close()} from any thread; the rest runs on its own
 * thread.
 */
final class TotalRanker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TotalRanker.class);
    private static final long JOIN_TIMEOUT_MS = 30_000;

    private final TopUrlsOptions options;
    private final GroupConsumer<String, String> consumer;
    private final Producer<String, String> producer;
    private final RankingMerger merger;
    private final Consumer<UrlRanking> listener;
    private final Thread thread;
    private ConsumerIterator<String, String> records;

    private TotalRanker(TopUrlsOptions options, Producer<String, String> producer, Consumer<UrlRanking> listener) {
        this.options = options;
        this.producer = producer;
        this.listener = listener;
        this.merger = new RankingMerger(options.instances(), options.topN());
        this.consumer = new GroupConsumer<>(TopUrlsClients.consumer(options, options.totalGroup(), false),
            new StringDeserializer(), new StringDeserializer());
        consumer.setRebalanceListener(partitions -> false);
        this.thread = new Thread(this::run, options.totalGroup());
        thread.setDaemon(true);
    }

    /**
     * Joins the total ranker's group, moves to the end of the partials topic and starts merging on a thread of its
     * own; {@code listener} hears every total ranking, on that thread.
     *
     * @throws MillraceException when the group does not give it the partials topic in time
     */
    static TotalRanker start(TopUrlsOptions options, Producer<String, String> producer,
                             Consumer<UrlRanking> listener) throws InterruptedException {
        TotalRanker ranker = new TotalRanker(options, producer, listener);
        try {
            ranker.records = ranker.consumer.createMessageStreams(Map.of(options.partialsTopic(), 1))
                .get(options.partialsTopic()).get(0).iterator();
            ranker.moveToEnd();
        } catch (RuntimeException | InterruptedException e) {
            ranker.consumer.close();
            throw e;
        }
        ranker.thread.start();
        return ranker;
    }

    /** Waits until the group gave this consumer the partials topic, then skips whatever earlier runs left there. */
    private void moveToEnd() throws InterruptedException {
        try (PartitionReader reader = new PartitionReader(TopUrlsClients.consumer(options, options.totalGroup(), false))) {
            int partitions = reader.partitionCount(options.partialsTopic());
            long deadline = System.currentTimeMillis() + JOIN_TIMEOUT_MS;
            while (owned().size() < partitions) {
                if (System.currentTimeMillis() > deadline) {
                    throw new MillraceException("The group " + options.totalGroup() + " did not give its consumer the "
                        + partitions + " partitions of " + options.partialsTopic() + " within " + JOIN_TIMEOUT_MS
                        + " ms (another member, still running?); it has " + owned());
                }
                Thread.sleep(50);
            }
            for (TopicPartition tp : owned()) {
                consumer.seek(tp.topic(), tp.partition(), reader.latestOffset(tp));
            }
        }
    }

    private Set<TopicPartition> owned() {
        return consumer.ownedPartitions();
    }

    private void run() {
        while (true) {
            try {
                if (!records.hasNext()) {
                    return;   // closed
                }
                merge(records.next());
            } catch (ConsumerTimeoutException quiet) {
                // nothing yet: wait on
            } catch (RuntimeException e) {
                LOG.warn("Total ranker: a partial ranking could not be merged: {}", e.toString());
            }
        }
    }

    private void merge(ConsumerRecord<String, String> record) {
        merger.accept(record.key(), RankingText.decode(record.value())).ifPresent(total -> {
            producer.send(new ProducerRecord<>(options.totalsTopic(), RankingText.encode(total)), (metadata, error) -> {
                if (error != null) {
                    LOG.warn("Total ranker: the ranking of window {} was not published: {}", total.windowEndMs(),
                        error.toString());
                }
            });
            listener.accept(total);
        });
    }

    /** Leaves the group (nothing committed) and waits for the merging thread to end. */
    @Override
    public void close() {
        consumer.close();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
