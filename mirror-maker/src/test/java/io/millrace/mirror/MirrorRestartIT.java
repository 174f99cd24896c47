package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * The mirror, in a process of its own, through what an operator does around it: a restart of the live
 * broker and then of the offline one while it copies loses nothing, and SIGTERM stops it within its
 * bound even while the ZooKeeper holding its group is down.
 */
public class MirrorRestartIT extends MirrorProcessHarness {

    @Test(timeout = 300_000)
    public void aLiveBrokerRestartAndAnOfflineBrokerRestartDuringMirroringLoseNothing() throws Exception {
        try (ContinuousProducer source = new ContinuousProducer()) {
            startMirror("g-restart");
            awaitMirrored(2_000);
            live.stopBroker(0);
            Thread.sleep(1_000);
            live.startBroker(0);
            awaitMirrored(offlineCount() + 1_000);
            offline.stopBroker(0);
            Thread.sleep(1_000);
            offline.startBroker(0);
            awaitMirrored(offlineCount() + 1_000);
        }
        awaitComplete();
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> source = read(live, p);
            List<String> mirrored = read(offline, p);
            assertTrue("partition " + p + ": every live record is offline",
                new java.util.HashSet<>(mirrored).containsAll(source));
            java.util.LinkedHashSet<String> firstSeen = new java.util.LinkedHashSet<>(mirrored);
            assertEquals("partition " + p + ": first copies in the live order",
                new ArrayList<>(new java.util.LinkedHashSet<>(source)), new ArrayList<>(firstSeen));
        }
    }

    /** SIGTERM ends the mirror within its bound even while the live group's ZooKeeper is down. */
    @Test(timeout = 300_000)
    public void sigtermStopsTheMirrorWithinItsBoundWhileTheGroupsZooKeeperIsDown() throws Exception {
        try (io.millrace.testkit.EmbeddedZooKeeper registries = new io.millrace.testkit.EmbeddedZooKeeper().start()) {
            try (ContinuousProducer source = new ContinuousProducer()) {
                Process mirror = startMirror("g-sigterm", registries.connectString());
                awaitMirrored(2_000);
                registries.stop();
                long start = System.nanoTime();
                mirror.destroy();   // SIGTERM
                assertTrue("the mirror did not stop within 60 s", mirror.waitFor(60, TimeUnit.SECONDS));
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue("SIGTERM to exit took " + tookMs + " ms with ZooKeeper down", tookMs < 15_000);
            }
        }
    }
}
