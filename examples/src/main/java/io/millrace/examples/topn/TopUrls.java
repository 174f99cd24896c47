package io.millrace.examples.topn;

import io.millrace.producer.Producer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rolling top URLs as one application: the total ranker, then the counting instances, all in this JVM and
 * sharing one producer. What {@code bin/millrace example top-urls} runs, and what a test calls:
 *
 * <pre>{@code
 * try (TopUrls top = TopUrls.start(TopUrlsOptions.builder(bootstrap, zookeeper, registryUrl).build(),
 *         total -> System.out.println(RankingDisplay.format(total, window)))) {
 *     ...   // rankings arrive on the total ranker's thread until close
 * }
 * }</pre>
 *
 * Each piece is a plain group consumer, so the instances could as well run in processes of their own: nothing
 * but the partials topic connects them to the total ranker.
 */
public final class TopUrls implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopUrls.class);

    private final Producer<String, String> producer;
    private final TotalRanker total;
    private final List<CountingInstance> instances = new ArrayList<>();

    private TopUrls(Producer<String, String> producer, TotalRanker total) {
        this.producer = producer;
        this.total = total;
    }

    /**
     * Creates the rankings topics if needed and starts the total ranker and then the counting instances;
     * {@code onTotal} hears every total ranking, in window order, on the total ranker's thread.
     *
     * @throws io.millrace.common.errors.MillraceException when the cluster cannot be reached or the total ranker
     *         cannot join its group
     */
    public static TopUrls start(TopUrlsOptions options, Consumer<UrlRanking> onTotal) throws InterruptedException {
        for (String created : RankingTopics.ensureExist(options)) {
            LOG.info("Created the topic {} with one partition", created);
        }
        Producer<String, String> producer = TopUrlsClients.producer(options);
        TopUrls top;
        try {
            top = new TopUrls(producer, TotalRanker.start(options, producer, onTotal));
        } catch (RuntimeException | InterruptedException e) {
            producer.close();
            throw e;
        }
        try {
            for (int i = 0; i < options.instances(); i++) {
                top.instances.add(CountingInstance.start(i, options, producer));
            }
        } catch (RuntimeException e) {
            top.close();
            throw e;
        }
        return top;
    }

    /** Page views the counting instances have read, each reads all of them. */
    public List<Long> viewsRead() {
        return instances.stream().map(CountingInstance::views).toList();
    }

    /** Views that came after a window they belong to had been ranked, over all instances. */
    public long lateViews() {
        return instances.stream().mapToLong(CountingInstance::lateViews).sum();
    }

    /** Stops the counting instances, then the total ranker, then sends what the producer still holds. */
    @Override
    public void close() {
        instances.forEach(CountingInstance::close);
        total.close();
        producer.close();
    }
}
