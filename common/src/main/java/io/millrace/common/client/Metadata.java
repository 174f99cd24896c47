package io.millrace.common.client;

import io.millrace.common.errors.InvalidTopicException;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's knowledge of the cluster, kept fresh through Metadata requests: which brokers exist,
 * and for the topics the client uses, their partitions and leaders.
 *
 * <p>The client names the topics it cares about ({@link #addTopics}); one refresh asks for all of
 * them. Refreshes happen when asked for ({@link #requestUpdate}, after a NOT_LEADER_OR_FOLLOWER or
 * a lost broker), at most once per {@code refreshBackoffMs}, and when the snapshot is older than
 * {@code maxAgeMs} (checked on every {@link #cluster()} call, without blocking). Concurrent
 * requests share one refresh. A refresh asks a known broker, falling back to the next one and then
 * to the bootstrap addresses, so losing any one broker never leaves a client blind.
 *
 * <p>Thread-safe.
 */
public final class Metadata implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Metadata.class);

    private final NetworkClient client;
    private final List<Node> bootstrap;
    private final long refreshBackoffMs;
    private final long maxAgeMs;
    private final boolean allowAutoTopicCreation;
    private final Set<String> topics = ConcurrentHashMap.newKeySet();
    private volatile Cluster cluster = Cluster.empty();
    private volatile long lastSuccessNanos;
    private long lastAttemptNanos;
    private CompletableFuture<Cluster> inProgress;
    /** The topics the refresh under way, or the last one, asks for. */
    private Set<String> askedTopics = Set.of();
    private int nextNode;
    private volatile boolean closed;

    public Metadata(NetworkClient client, List<InetSocketAddress> bootstrap, long refreshBackoffMs, long maxAgeMs) {
        this(client, bootstrap, refreshBackoffMs, maxAgeMs, false);
    }

    /**
     * @param allowAutoTopicCreation whether Metadata requests ask the broker to create unknown
     *     topics (it does so only if its {@code auto.create.topics.enable} allows), as producers do
     */
    public Metadata(NetworkClient client, List<InetSocketAddress> bootstrap, long refreshBackoffMs, long maxAgeMs,
                    boolean allowAutoTopicCreation) {
        if (bootstrap.isEmpty()) {
            throw new IllegalArgumentException("No bootstrap address given");
        }
        this.client = client;
        this.bootstrap = bootstrapNodes(bootstrap);
        this.refreshBackoffMs = refreshBackoffMs;
        this.maxAgeMs = maxAgeMs;
        this.allowAutoTopicCreation = allowAutoTopicCreation;
        this.lastSuccessNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(maxAgeMs + refreshBackoffMs);
    }

    private static List<Node> bootstrapNodes(List<InetSocketAddress> addresses) {
        List<Node> nodes = new ArrayList<>(addresses.size());
        for (int i = 0; i < addresses.size(); i++) {
            nodes.add(new Node(-1 - i, addresses.get(i).getHostString(), addresses.get(i).getPort()));
        }
        return List.copyOf(nodes);
    }

    /**
     * The latest snapshot as it is, without the age check of {@link #cluster()}: for a hot path
     * (a producer's {@code send}) whose client calls {@link #cluster()} on its own I/O thread, which
     * keeps the snapshot fresh. Saves a clock read per call.
     */
    public Cluster snapshot() {
        return cluster;
    }

    /** The latest snapshot; starts a background refresh if it is older than {@code maxAgeMs}. */
    public Cluster cluster() {
        if (!closed && ageMs() >= maxAgeMs) {
            requestUpdate();
        }
        return cluster;
    }

    private long ageMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastSuccessNanos);
    }

    /** Topics to describe in every refresh from now on. Does not refresh by itself. */
    public void addTopics(Collection<String> newTopics) {
        topics.addAll(newTopics);
    }

    public Set<String> topics() {
        return Set.copyOf(topics);
    }

    /**
     * Refreshes the tracked topics, no sooner than {@code refreshBackoffMs} after the last attempt;
     * a refresh already under way is shared. A topic added since the last refresh started is asked
     * for at once (after the one under way, which does not name it), as Kafka's clients ask for new
     * topics: the backoff spaces out asking again, not asking for the first time. Completes with the
     * new snapshot, or fails with {@link NetworkException} when no broker answered.
     */
    public synchronized CompletableFuture<Cluster> requestUpdate() {
        return requestUpdateSince(cluster);
    }

    /**
     * {@link #requestUpdate}, unless a refresh has finished since the caller took {@code seen}
     * (its snapshot): then that newer snapshot, at once. A caller that found a leader missing in
     * {@code seen} must not wait out the backoff for a refresh that already answered, which it
     * would if that refresh finished between its look and its request.
     */
    public synchronized CompletableFuture<Cluster> requestUpdateSince(Cluster seen) {
        if (cluster != seen) {
            return CompletableFuture.completedFuture(cluster);
        }
        boolean newTopics = !askedTopics.containsAll(topics);
        if (inProgress != null) {
            return newTopics ? inProgress.handle((c, e) -> null).thenCompose(ignored -> requestUpdate()) : inProgress;
        }
        CompletableFuture<Cluster> refresh = new CompletableFuture<>();
        inProgress = refresh;
        long waitMs = newTopics ? 0
            : Math.max(0, refreshBackoffMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastAttemptNanos));
        List<String> names = List.copyOf(topics);
        askedTopics = Set.copyOf(names);
        Runnable start = () -> fetch(names).whenComplete((c, e) -> finished(refresh, c, e));
        if (waitMs > 0) {
            CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS).execute(start);
        } else {
            start.run();
        }
        return refresh;
    }

    private void finished(CompletableFuture<Cluster> refresh, Cluster result, Throwable error) {
        synchronized (this) {
            inProgress = null;
        }
        if (error != null) {
            refresh.completeExceptionally(error);
        } else {
            refresh.complete(result);
        }
    }

    /** Describes every topic in the cluster (regex subscriptions, tools); the result is merged in. */
    public CompletableFuture<Cluster> fetchAllTopics() {
        return fetch(null);
    }

    /**
     * Blocks until the topic's partitions are known, refreshing as needed, and returns that
     * snapshot. Throws {@link TimeoutException} after {@code timeoutMs}, and
     * {@link InvalidTopicException} at once for a name the broker rejects.
     */
    public Cluster awaitTopic(String topic, long timeoutMs) throws InterruptedException {
        topics.add(topic);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            Cluster current = cluster;
            if (current.partitionCount(topic) > 0) {
                return current;
            }
            if (current.topicError(topic) == Errors.INVALID_TOPIC_EXCEPTION) {
                throw new InvalidTopicException("Invalid topic: " + topic);
            }
            long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remainingMs <= 0) {
                throw new TimeoutException("Topic " + topic + " not present in metadata after " + timeoutMs + " ms");
            }
            awaitRefresh(current, remainingMs);
        }
    }

    private void awaitRefresh(Cluster seen, long timeoutMs) throws InterruptedException {
        try {
            requestUpdateSince(seen).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            LOG.debug("Metadata refresh failed, will retry: {}", e.getCause().getMessage());
        } catch (java.util.concurrent.TimeoutException e) {
            // the caller's deadline decides
        }
    }

    private CompletableFuture<Cluster> fetch(List<String> topicNames) {
        synchronized (this) {
            lastAttemptNanos = System.nanoTime();
        }
        MetadataRequest request = new MetadataRequest(
            topicNames == null ? null : topicNames.stream().map(MetadataRequest.Topic::named).toList(),
            allowAutoTopicCreation, false, false);
        CompletableFuture<Cluster> result = new CompletableFuture<>();
        tryNodes(request, candidates(), 0, result, null);
        return result;
    }

    /** Known brokers first, starting with a different one each time, then the bootstrap addresses. */
    private synchronized List<Node> candidates() {
        List<Node> known = cluster.nodes();
        List<Node> ordered = new ArrayList<>(known.size() + bootstrap.size());
        int start = known.isEmpty() ? 0 : Math.floorMod(nextNode++, known.size());
        for (int i = 0; i < known.size(); i++) {
            ordered.add(known.get((start + i) % known.size()));
        }
        ordered.addAll(bootstrap);
        return ordered;
    }

    private void tryNodes(MetadataRequest request, List<Node> nodes, int index, CompletableFuture<Cluster> result,
                          Throwable lastError) {
        if (closed) {
            result.completeExceptionally(new NetworkException("Metadata is closed"));
            return;
        }
        if (index >= nodes.size()) {
            result.completeExceptionally(new NetworkException("No broker answered a Metadata request; tried "
                + nodes + (lastError == null ? "" : ", last error: " + lastError.getMessage()), lastError));
            return;
        }
        client.<MetadataResponse>send(nodes.get(index), request).whenComplete((response, error) -> {
            if (error != null) {
                tryNodes(request, nodes, index + 1, result, error);
            } else {
                result.complete(update(response));
            }
        });
    }

    private synchronized Cluster update(MetadataResponse response) {
        cluster = cluster.merge(response);
        lastSuccessNanos = System.nanoTime();
        return cluster;
    }

    @Override
    public void close() {
        closed = true;
    }
}
