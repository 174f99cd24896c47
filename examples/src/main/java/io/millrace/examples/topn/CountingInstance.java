package io.millrace.examples.topn;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.common.serialization.SerializationException;
import io.millrace.consumer.ConsumerIterator;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.ConsumerTimeoutException;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.RebalanceListener;
import io.millrace.examples.events.PageViewEvent;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.AvroSerdeConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One counting instance (Storm's intermediate ranker): a group consumer, alone in a group of its own, that
 * reads every partition of the page views on one thread, counts the views of its share of URLs by their event
 * time with a {@link PartialRanker}, and publishes the ranking of each closed window to the partials topic,
 * keyed by the instance's number. It never commits: its counts live in memory.
 *
 * <p>Thread-safe to {@link #close()} from any thread; everything else runs on the instance's own thread.
 */
final class CountingInstance implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CountingInstance.class);
    private static final long PARTITION_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final String id;
    private final TopUrlsOptions options;
    private final GroupConsumer<byte[], byte[]> consumer;
    private final AvroDeserializer<PageViewEvent> avro = new AvroDeserializer<>();
    private final Producer<String, String> producer;
    private final PartialRanker ranker;
    private final Thread thread;
    private Set<Integer> partitions = Set.of();
    private long partitionsCheckedNanos;
    private volatile long views;
    private volatile long undecodable;
    private volatile long lateViews;

    private CountingInstance(int instance, TopUrlsOptions options, Producer<String, String> producer) {
        this.id = String.valueOf(instance + 1);
        this.options = options;
        this.producer = producer;
        this.ranker = new PartialRanker(instance, options.instances(), options.window(), options.slide(),
            options.lateness(), options.topN());
        avro.configure(Map.of(AvroSerdeConfig.SCHEMA_REGISTRY_URL_CONFIG, options.schemaRegistryUrl(),
            AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG, true), false);
        this.consumer = new GroupConsumer<>(TopUrlsClients.consumer(options, options.countingGroup(instance),
            options.fromBeginning()), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.setRebalanceListener(partitions -> false);
        this.thread = new Thread(this::run, options.countingGroup(instance));
        thread.setDaemon(true);
    }

    /** Joins the instance's group and starts counting {@code instance} (from 0)'s share on a thread of its own. */
    static CountingInstance start(int instance, TopUrlsOptions options, Producer<String, String> producer) {
        CountingInstance counting = new CountingInstance(instance, options, producer);
        counting.thread.start();
        return counting;
    }

    private void run() {
        ConsumerIterator<byte[], byte[]> records =
            consumer.createMessageStreams(Map.of(options.topic(), 1)).get(options.topic()).get(0).iterator();
        while (true) {
            try {
                if (!records.hasNext()) {
                    return;   // closed
                }
                count(records.next());
            } catch (ConsumerTimeoutException quiet) {
                // nothing for a while: look at the partitions and the windows all the same
            }
            checkPartitions();
            ranker.rankClosedWindows().forEach(this::publish);
        }
    }

    private void count(ConsumerRecord<byte[], byte[]> record) {
        PageViewEvent view;
        try {
            view = avro.deserialize(record.topic(), record.value());
        } catch (SerializationException | ClassCastException e) {
            if (undecodable++ == 0) {
                LOG.warn("Counting instance {}: skipping a record that is not a page view ({}@{}): {}", id,
                    record.topicPartition(), record.offset(), e.toString());
            }
            return;
        }
        Long headerTime = view.getHeader().getTime();
        ranker.observe(record.partition(), view.getUrl(), headerTime != null ? headerTime : record.timestamp());
        views++;
        lateViews = ranker.lateViews();
    }

    /** The watermark waits for the partitions the instance owns now; a rebalance may change them. */
    private void checkPartitions() {
        long now = System.nanoTime();
        if (now - partitionsCheckedNanos < PARTITION_CHECK_NANOS) {
            return;
        }
        partitionsCheckedNanos = now;
        Set<Integer> owned = new TreeSet<>();
        for (TopicPartition tp : consumer.ownedPartitions()) {
            if (tp.topic().equals(options.topic())) {
                owned.add(tp.partition());
            }
        }
        if (!owned.equals(partitions)) {
            LOG.info("Counting instance {} reads partitions {} of {}", id, owned, options.topic());
            partitions = owned;
            ranker.assign(owned);
        }
    }

    private void publish(UrlRanking partial) {
        producer.send(new ProducerRecord<>(options.partialsTopic(), id, RankingText.encode(partial)),
            (metadata, error) -> {
                if (error != null) {
                    LOG.warn("Counting instance {}: the ranking of window {} was not published: {}", id,
                        partial.windowEndMs(), error.toString());
                }
            });
    }

    /** Page views read so far. */
    long views() {
        return views;
    }

    /** Views of this instance's URLs that came after a window they belong to had been ranked. */
    long lateViews() {
        return lateViews;
    }

    /** Leaves the group (nothing committed) and waits for the reading thread to end. */
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
