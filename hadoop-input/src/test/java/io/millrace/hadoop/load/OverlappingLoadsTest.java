package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.state.ConcurrentLoadException;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Loads of one state directory that overlap, as two schedulers would start them: the second never
 * touches the first's staging, whatever instant it starts at, and every event lands exactly once.
 */
public class OverlappingLoadsTest {

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String dataRoot(Map<String, Object> settings) {
        return (String) settings.get(LoadConfig.DATA_ROOT_CONFIG);
    }

    @Test(timeout = 180_000)
    public void aLoadStartedWhileAnotherIsAtItsCommitPointLeavesItsStagingAlone() throws Exception {
        cluster.createTopic("paused", 2);
        List<SentEvent> sent = cluster.produce("paused", 2, 50, 2, 0);
        Map<String, Object> settings = cluster.loadSettings("paused", "paused");
        CountDownLatch atCommitPoint = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        CommitHook pauseAfterCommit = step -> {
            if (step == CommitStep.COMMITTED) {
                atCommitPoint.countDown();
                try {
                    goOn.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        ExecutorService first = Executors.newSingleThreadExecutor();
        try {
            Future<LoadSummary> paused = first.submit(() ->
                new LoadJob(new LoadConfig(settings), cluster.localJobConf(), pauseAfterCommit, LoadMapper.class).run());
            assertTrue("the first load reached its commit point", atCommitPoint.await(120, TimeUnit.SECONDS));
            try {
                new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
                throw new AssertionError("a second load ran while the first held the state directory");
            } catch (ConcurrentLoadException expected) {
                assertTrue(expected.getMessage(), expected.getMessage().contains("is running"));
            }
            goOn.countDown();
            assertEquals(sent.size(), paused.get(60, TimeUnit.SECONDS).records());
        } finally {
            goOn.countDown();
            first.shutdownNow();
        }
        LoadedData.read(dataRoot(settings)).assertExactlyOnce(sent, false);
        assertEquals(sent.size(), 100);
    }

    @Test(timeout = 300_000)
    public void twoLoadsStartedTogetherNeverLoseOrDuplicateAnEvent() throws Exception {
        cluster.createTopic("together", 2);
        Map<String, Object> settings = cluster.loadSettings("together", "together");
        List<SentEvent> sent = new ArrayList<>();
        ExecutorService loads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 3; round++) {
                sent.addAll(cluster.produce("together", 2, 30, 1, round * 30));
                CyclicBarrier together = new CyclicBarrier(2);
                List<Future<Long>> results = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    results.add(loads.submit(() -> {
                        together.await();
                        try {
                            LoadSummary summary = new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
                            return summary == null ? 0L : summary.records();
                        } catch (ConcurrentLoadException refused) {
                            return -1L;
                        }
                    }));
                }
                long loaded = 0;
                for (Future<Long> result : results) {
                    loaded += Math.max(0, result.get());
                }
                assertEquals("round " + round, 60, loaded);
                LoadedData.read(dataRoot(settings)).assertExactlyOnce(sent, false);
            }
        } finally {
            loads.shutdownNow();
        }
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), cluster.localJobConf());
        assertEquals(List.of(), state.pending());
    }
}
