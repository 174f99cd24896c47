package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.api.transaction.OperationType;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes a topic's configuration overrides in {@code /millrace/config/topics/<topic>}, on any
 * broker, without the controller: the znode is the one place a topic's settings live, and every
 * broker's metadata cache sees the change and applies it to the logs it hosts.
 *
 * <p>A change is a read-modify-write: read the overrides and their version, derive the new ones,
 * and write them in one transaction that checks the topic still exists and sets the data at the
 * version read. A concurrent change (another broker, another request) makes the write fail on the
 * version, and the change is derived again from what that one wrote, so no update is lost. The
 * topic check keeps a change from landing on the leftover config of a topic deleted meanwhile.
 *
 * <p>Thread-safe. ZooKeeper calls run on one thread of their own, never the caller's.
 */
final class TopicConfigAdmin implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicConfigAdmin.class);

    /** Writes lost to concurrent changes before giving up; each loss means someone else's change went in. */
    private static final int MAX_ATTEMPTS = 10;

    private final CuratorFramework client;
    private final MetadataCache metadata;
    private final ExecutorService thread;

    TopicConfigAdmin(CuratorFramework client, MetadataCache metadata, String name) {
        this.client = client;
        this.metadata = metadata;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name + "-topic-config");
            t.setDaemon(true);
            return t;
        });
    }

    /** Overrides as written, and the zxid of the write (of the read, when nothing changed). */
    private record Written(Map<String, String> config, long zxid) {
    }

    /**
     * Replaces the topic's overrides with {@code change} applied to the current ones, then waits up
     * to {@code timeout} for this broker's metadata to show them. {@code change} may run more than
     * once and may throw to refuse the change (the future then fails with its exception). Fails with
     * {@link UnknownTopicOrPartitionException} when there is no such topic.
     */
    CompletableFuture<Map<String, String>> alter(String topic, UnaryOperator<Map<String, String>> change, Duration timeout) {
        CompletableFuture<Written> written = new CompletableFuture<>();
        try {
            thread.execute(() -> {
                try {
                    written.complete(write(topic, change));
                } catch (MillraceException e) {
                    written.completeExceptionally(e);
                } catch (Exception e) {
                    written.completeExceptionally(new MillraceException("ZooKeeper request failed: " + e, e));
                }
            });
        } catch (RejectedExecutionException e) {
            written.completeExceptionally(new MillraceException("Broker is shutting down"));
        }
        return written.thenCompose(w -> visible(topic, w, timeout));
    }

    private Written write(String topic, UnaryOperator<Map<String, String>> change) throws Exception {
        String path = ClusterPaths.topicConfig(topic);
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            Stat stat = new Stat();
            Map<String, String> current = read(topic, path, stat);
            Map<String, String> next = Map.copyOf(change.apply(current));
            if (next.equals(current)) {
                return new Written(next, stat.getMzxid());
            }
            try {
                List<CuratorTransactionResult> results = client.transaction().forOperations(
                    client.transactionOp().check().forPath(ClusterPaths.topic(topic)),
                    client.transactionOp().setData().withVersion(stat.getVersion())
                        .forPath(path, ClusterJson.topicConfig(next)));
                log.info("Topic {}'s configuration is now {} (was {})", topic, next, current);
                Stat written = results.stream().filter(r -> r.getType() == OperationType.SET_DATA).findFirst()
                    .orElseThrow().getResultStat();
                return new Written(next, written.getMzxid());
            } catch (KeeperException.BadVersionException e) {
                log.debug("Topic {}'s configuration changed while it was being altered; reading it again", topic);
            } catch (KeeperException.NoNodeException e) {
                throw unknown(topic);
            }
        }
        throw new MillraceException("Topic " + topic + "'s configuration kept changing; gave up after " + MAX_ATTEMPTS
            + " attempts");
    }

    private Map<String, String> read(String topic, String path, Stat stat) throws Exception {
        try {
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            if (client.checkExists().forPath(ClusterPaths.topic(topic)) == null) {
                throw unknown(topic);
            }
            return data == null || data.length == 0 ? Map.of() : ClusterJson.parseTopicConfig(data);
        } catch (KeeperException.NoNodeException e) {
            throw unknown(topic);
        }
    }

    /**
     * Completes once this broker's view holds the write (or a later one, or the topic is gone), so
     * that a describe sent here next sees the change. After {@code timeout} it completes all the
     * same: the change is written, and will show.
     */
    private CompletableFuture<Map<String, String>> visible(String topic, Written written, Duration timeout) {
        return metadata.whenTrue(s -> !s.hasTopic(topic) || s.topicConfigZxid(topic) >= written.zxid())
            .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .handle((snapshot, error) -> written.config());
    }

    private static UnknownTopicOrPartitionException unknown(String topic) {
        return new UnknownTopicOrPartitionException("Topic " + topic + " does not exist");
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
