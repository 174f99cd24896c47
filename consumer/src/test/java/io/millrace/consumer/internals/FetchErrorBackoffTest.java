package io.millrace.consumer.internals;

import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.protocol.Errors;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.testkit.Conditions;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * A partition whose fetches a broker keeps answering with an error that no leader change cures
 * (UNKNOWN_SERVER_ERROR) is fetched again only after a backoff that grows from retry.backoff.ms,
 * instead of once per fetch loop with an error logged each time; the broker's other partitions
 * are fetched as before, and the partition comes back as soon as the broker answers it again.
 */
public class FetchErrorBackoffTest {

    private static final long BACKOFF_MS = 100;

    private ScriptedBroker broker;
    private NetworkClient client;
    private ScheduledExecutorService scheduler;
    private FetcherManager fetchers;

    @Before
    public void setUp() throws Exception {
        broker = new ScriptedBroker("events", 2);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", broker.port());
        ConsumerConfig config = new ConsumerConfig(Map.of(
            CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + broker.port(),
            CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, BACKOFF_MS));
        client = new NetworkClient(NetworkClient.Options.defaults("backoff-test"));
        Metadata metadata = new Metadata(client, List.of(address), BACKOFF_MS, 300_000);
        metadata.requestUpdate().get(10, TimeUnit.SECONDS);
        scheduler = Executors.newSingleThreadScheduledExecutor();
        fetchers = new FetcherManager(client, metadata, config, new OffsetLookup(client, metadata, 5_000, BACKOFF_MS, false),
            "backoff-test", 5_000, scheduler, BACKOFF_MS);
    }

    @After
    public void tearDown() throws Exception {
        fetchers.close();
        scheduler.shutdownNow();
        client.close();
        broker.close();
    }

    @Test
    public void aPartitionThatKeepsFailingIsFetchedAfterAGrowingBackoffWhileTheOtherKeepsBeingFetched() throws Exception {
        broker.failFetches(0, Errors.UNKNOWN_SERVER_ERROR);
        LinkedBlockingQueue<FetchedChunk> stream = new LinkedBlockingQueue<>(10);
        long started = System.nanoTime();
        fetchers.assign(List.of(
            new OwnedPartition(new TopicPartition("events", 0), "stream-0", stream, 0L),
            new OwnedPartition(new TopicPartition("events", 1), "stream-0", stream, 0L)));

        Conditions.waitUntil(() -> broker.fetchesOf(1) >= 300
            && System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(1_600), "the healthy partition to be fetched");
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        int failedFetches = broker.fetchesOf(0);
        // 100, 200, 400, 800, ... ms apart: about log2(elapsed / 100) + 1 tries, where a loop without backoff
        // fetches the failing partition as often as the healthy one.
        int allowed = 2 + (int) Math.ceil(Math.log((double) elapsedMs / BACKOFF_MS + 1) / Math.log(2));
        assertTrue("fetched the failing partition " + failedFetches + " times in " + elapsedMs + " ms, at most "
            + allowed + " expected", failedFetches >= 2 && failedFetches <= allowed);

        broker.failFetches(0, Errors.NONE);
        int before = broker.fetchesOf(0);
        Conditions.waitUntil(() -> broker.fetchesOf(0) >= before + 100, "the partition to be fetched again once it answers");
    }
}
