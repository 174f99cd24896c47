package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.After;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * Commits written together against a real ZooKeeper: many members committing at once land with
 * their last offsets and metadata, the commits queued while the registry thread is busy go in one
 * transaction (one zxid), and a commit that fails its check or cannot be written fails alone.
 */
public class CommitBatcherTest {

    @ClassRule
    public static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();

    private CuratorFramework curator;
    private OffsetRegistry registry;
    private ExecutorService registryThread;
    private CommitBatcher batcher;

    @Before
    public void connect() throws Exception {
        curator = CuratorFrameworkFactory.newClient(ZOOKEEPER.connectString(), new RetryOneTime(100));
        curator.start();
        curator.blockUntilConnected();
        if (curator.checkExists().forPath(GroupNodes.CONSUMERS) != null) {
            curator.delete().deletingChildrenIfNeeded().forPath(GroupNodes.CONSUMERS);
        }
        registry = new OffsetRegistry(curator);
        registryThread = Executors.newSingleThreadExecutor();
        batcher = new CommitBatcher(registry, registryThread);
    }

    @After
    public void close() throws Exception {
        registryThread.shutdownNow();
        registryThread.awaitTermination(10, TimeUnit.SECONDS);
        curator.close();
    }

    private static Map<TopicPartition, OffsetRegistry.Committed> offset(TopicPartition tp, long offset, String metadata) {
        return Map.of(tp, new OffsetRegistry.Committed(offset, metadata));
    }

    @Test
    public void concurrentCommitsOfSeveralMembersAllLandInOrder() throws Exception {
        int members = 8;
        int commitsEach = 150;
        ExecutorService clients = Executors.newFixedThreadPool(members);
        List<CompletableFuture<Void>> all = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<java.util.concurrent.Future<?>> runs = new ArrayList<>();
        for (int m = 0; m < members; m++) {
            String group = "g" + (m % 2);
            TopicPartition tp = new TopicPartition("t", m);
            runs.add(clients.submit(() -> {
                start.await();
                for (int i = 1; i <= commitsEach; i++) {
                    // every third commit waits for its answer, as commitSync does; the others pile up
                    CompletableFuture<Void> f = batcher.submit(group, offset(tp, i, i % 2 == 0 ? "m" + i : ""), () -> { });
                    all.add(f);
                    if (i % 3 == 0) {
                        f.get(30, TimeUnit.SECONDS);
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (java.util.concurrent.Future<?> r : runs) {
            r.get(60, TimeUnit.SECONDS);
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        clients.shutdown();
        for (int m = 0; m < members; m++) {
            TopicPartition tp = new TopicPartition("t", m);
            Map<TopicPartition, OffsetRegistry.Committed> read = registry.fetch("g" + (m % 2), List.of(tp));
            assertEquals(new OffsetRegistry.Committed(commitsEach, "m" + commitsEach), read.get(tp));
        }
    }

    @Test
    public void commitsQueuedTogetherGoInOneTransaction() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        registryThread.execute(() -> awaitQuietly(busy));
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        for (int p = 0; p < 6; p++) {
            futures.add(batcher.submit("g" + (p % 3), offset(new TopicPartition("t", p), 10 + p, "meta" + p), () -> { }));
        }
        busy.countDown();
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        Set<Long> zxids = new HashSet<>();
        for (int p = 0; p < 6; p++) {
            TopicPartition tp = new TopicPartition("t", p);
            String group = "g" + (p % 3);
            assertEquals(new OffsetRegistry.Committed(10 + p, "meta" + p), registry.fetch(group, List.of(tp)).get(tp));
            zxids.add(curator.checkExists().forPath(OffsetRegistry.offsetPath(group, tp)).getMzxid());
        }
        // the first write made the nodes; the second, all six commits again, is one transaction
        futures.clear();
        commitAllSixAgainWhileBusy(futures);
        zxids.clear();
        for (int p = 0; p < 6; p++) {
            TopicPartition tp = new TopicPartition("t", p);
            zxids.add(curator.checkExists().forPath(OffsetRegistry.offsetPath("g" + (p % 3), tp)).getMzxid());
            assertEquals(20 + p, registry.fetch("g" + (p % 3), List.of(tp)).get(tp).offset());
        }
        assertEquals("one zxid for all six commits: " + zxids, 1, zxids.size());
    }

    private void commitAllSixAgainWhileBusy(List<CompletableFuture<Void>> futures) throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        registryThread.execute(() -> awaitQuietly(busy));
        for (int p = 0; p < 6; p++) {
            futures.add(batcher.submit("g" + (p % 3), offset(new TopicPartition("t", p), 20 + p, ""), () -> { }));
        }
        busy.countDown();
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    @Test
    public void aCommitThatFailsItsCheckOrItsWriteFailsAlone() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        registryThread.execute(() -> awaitQuietly(busy));
        TopicPartition tp = new TopicPartition("t", 0);
        CompletableFuture<Void> before = batcher.submit("good", offset(tp, 1, "a"), () -> { });
        CompletableFuture<Void> refused = batcher.submit("good", offset(tp, 99, ""), () -> {
            throw new IllegalStateException("refused");
        });
        // not a valid ZooKeeper path: the transaction it is in fails, then it alone
        CompletableFuture<Void> unwritable = batcher.submit("bad//group", offset(tp, 5, ""), () -> { });
        CompletableFuture<Void> after = batcher.submit("good", offset(tp, 2, "b"), () -> { });
        CompletableFuture<Void> other = batcher.submit("other", offset(tp, 3, ""), () -> { });
        busy.countDown();
        before.get(30, TimeUnit.SECONDS);
        after.get(30, TimeUnit.SECONDS);
        other.get(30, TimeUnit.SECONDS);
        assertEquals("refused", causeOf(refused).getMessage());
        assertTrue(causeOf(unwritable) instanceof IllegalStateException);
        assertEquals(new OffsetRegistry.Committed(2, "b"), registry.fetch("good", List.of(tp)).get(tp));
        assertEquals(new OffsetRegistry.Committed(3, ""), registry.fetch("other", List.of(tp)).get(tp));
    }

    private static Throwable causeOf(CompletableFuture<Void> failed) throws Exception {
        try {
            failed.get(30, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
