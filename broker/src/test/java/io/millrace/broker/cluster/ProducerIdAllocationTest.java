package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

public class ProducerIdAllocationTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final Brokers brokers = new Brokers(zookeeper);
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    @Rule
    public final TestRule rules = RuleChain.outerRule(zookeeper).around(brokers);

    @After
    public void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    public void theFirstBlockStartsAtZeroAndIsWrittenAsKafkaWritesIt() throws Exception {
        ZkCluster broker = brokers.start(4);
        assertEquals(new ProducerIdBlock(4, 0, 999), broker.allocateProducerIdBlock());
        assertEquals(new ProducerIdBlock(4, 1000, 1999), broker.allocateProducerIdBlock());
        byte[] data = broker.curator().getData().forPath(ClusterPaths.PRODUCER_ID_BLOCK);
        assertEquals(new ObjectMapper().readTree("{\"version\":1,\"broker\":4,\"block_start\":\"1000\",\"block_end\":\"1999\"}"),
            new ObjectMapper().readTree(data));
    }

    @Test
    public void twoBrokersAllocatingConcurrentlyNeverOverlap() throws Exception {
        List<ZkCluster> both = List.of(brokers.start(1), brokers.start(2));
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<ProducerIdBlock>>> results = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            ZkCluster broker = both.get(t % 2);
            Callable<List<ProducerIdBlock>> task = () -> {
                go.await();
                List<ProducerIdBlock> taken = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    taken.add(broker.allocateProducerIdBlock());
                }
                return taken;
            };
            results.add(threads.submit(task));
        }
        go.countDown();
        List<ProducerIdBlock> all = new ArrayList<>();
        for (Future<List<ProducerIdBlock>> result : results) {
            all.addAll(result.get(60, TimeUnit.SECONDS));
        }
        all.sort(Comparator.comparingLong(ProducerIdBlock::firstId));
        assertEquals(120, all.size());
        // Sorted, the blocks tile 0 .. 119,999 exactly: no overlap and, here, no gap either.
        for (int i = 0; i < all.size(); i++) {
            assertEquals(all.get(i).toString(), 1000L * i, all.get(i).firstId());
            assertEquals(all.get(i).toString(), 1000L * i + 999, all.get(i).lastId());
        }
        assertTrue("both brokers took blocks", all.stream().map(ProducerIdBlock::brokerId).distinct().count() == 2);
    }

    @Test
    public void aRestartedBrokerContinuesAfterTheLastBlockHandedOut() throws Exception {
        ZkCluster first = brokers.start(1);
        ProducerIdBlock before = first.allocateProducerIdBlock();
        first.abandonSession();
        ZkCluster again = brokers.start(1);
        ProducerIdBlock after = again.allocateProducerIdBlock();
        assertEquals(before.lastId() + 1, after.firstId());
    }

    @Test
    public void anEmptyZnodeMeansNoBlockYetAndBlockEndsMayBeNumbers() throws Exception {
        ZkCluster broker = brokers.start(1);
        broker.curator().create().forPath(ClusterPaths.PRODUCER_ID_BLOCK, new byte[0]);
        assertEquals(0, broker.allocateProducerIdBlock().firstId());
        broker.curator().setData().forPath(ClusterPaths.PRODUCER_ID_BLOCK,
            "{\"version\":1,\"broker\":0,\"block_start\":5000,\"block_end\":5999}".getBytes());
        assertEquals(new ProducerIdBlock(1, 6000, 6999), broker.allocateProducerIdBlock());
    }
}
