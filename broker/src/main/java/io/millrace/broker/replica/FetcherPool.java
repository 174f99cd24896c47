package io.millrace.broker.replica;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.replica.ReplicaFetcher.FollowedPartition;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.utils.Time;
import java.util.HashMap;
import java.util.Map;

/**
 * The fetcher threads of one broker: {@code num.replica.fetchers} per source broker at most, each
 * partition on the one its hash picks, started on first use and stopped when they have nothing left
 * to fetch. A broker that comes back at another address gets new fetchers. Thread-safe (synchronized).
 */
final class FetcherPool implements AutoCloseable {

    private record FetcherKey(int brokerId, String address, int index) {
    }

    private final int brokerId;
    private final ReplicaConfig config;
    private final Time time;
    private final ReplicaFetcher.Listener listener;
    private final NetworkClient client;
    private final Map<FetcherKey, ReplicaFetcher> fetchers = new HashMap<>();
    private final Map<TopicPartition, ReplicaFetcher> assigned = new HashMap<>();

    FetcherPool(int brokerId, ReplicaConfig config, Time time, ReplicaFetcher.Listener listener) {
        this.brokerId = brokerId;
        this.config = config;
        this.time = time;
        this.listener = listener;
        this.client = new NetworkClient(NetworkClient.Options.defaults("broker-" + brokerId + "-replica-fetcher")
            .withRequestTimeoutMs(config.socketTimeoutMs()).withReceiveBufferBytes(config.socketReceiveBufferBytes()));
    }

    /** Fetches {@code tp} from {@code leader}, after truncating it; replaces any fetch of it already running. */
    synchronized void follow(TopicPartition tp, BrokerInfo leader, FollowedPartition followed) {
        stop(tp);
        Node node = new Node(leader.id(), leader.host(), leader.port());
        FetcherKey key = new FetcherKey(leader.id(), node.address(), Math.floorMod(tp.hashCode(), config.numFetchers()));
        ReplicaFetcher fetcher = fetchers.computeIfAbsent(key, k -> {
            ReplicaFetcher created = new ReplicaFetcher(brokerId, node, k.index(), client, config, time, listener);
            created.start();
            return created;
        });
        fetcher.add(tp, followed);
        assigned.put(tp, fetcher);
    }

    /** Stops fetching {@code tp}; once this returns no fetcher touches its log. */
    synchronized void stop(TopicPartition tp) {
        ReplicaFetcher fetcher = assigned.remove(tp);
        if (fetcher != null) {
            fetcher.remove(tp);
            if (fetcher.isEmpty()) {
                fetchers.values().remove(fetcher);
                fetcher.shutdown();
            }
        }
    }

    /** Whether {@code tp} is being fetched from {@code leader} at its current address. */
    synchronized boolean isFetching(TopicPartition tp, BrokerInfo leader) {
        ReplicaFetcher fetcher = assigned.get(tp);
        return fetcher != null && fetcher.leader().equals(new Node(leader.id(), leader.host(), leader.port()));
    }

    @Override
    public synchronized void close() {
        fetchers.values().forEach(ReplicaFetcher::shutdown);
        fetchers.clear();
        assigned.clear();
        client.close();
    }
}
