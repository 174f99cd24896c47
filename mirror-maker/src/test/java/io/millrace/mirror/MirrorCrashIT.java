package io.millrace.mirror;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * The mirror as an operator runs it, in processes of its own, while a live cluster keeps receiving
 * records: killed with SIGKILL in mid-stream and started again, it loses nothing and writes nothing
 * twice (each offline partition reads as the live one), and the duplicates it reports are exactly the
 * records the killed mirror had copied after its last commit, which it read again and did not write; two
 * mirrors in one group split the partitions, and when one is killed the other takes them over the same way.
 */
public class MirrorCrashIT extends MirrorProcessHarness {

    @Test(timeout = 300_000)
    public void aMirrorKilledMidStreamLosesNothingAndCopiesAgainOnlyFromItsLastCommit() throws Exception {
        Map<Integer, Long> copiedPastCommit;
        try (ContinuousProducer source = new ContinuousProducer()) {
            Process first = startMirror("g-crash");
            awaitMirrored(2_000);
            first.destroyForcibly();   // SIGKILL: no flush, no commit
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
            copiedPastCommit = copiedPastCommit("g-crash");
            startMirror("g-crash");
            awaitMirrored(source.sent() + 2_000);
        }
        assertEveryLiveRecordMirroredOnce();
        assertEquals("the restarted mirror's duplicates metric: what the killed one copied after its last commit",
            copiedPastCommit.values().stream().mapToLong(Long::longValue).sum(), stopAndReadDuplicates(1));
    }

    @Test(timeout = 300_000)
    public void twoMirrorsInOneGroupSplitThePartitionsAndOneTakesOverWhenTheOtherIsKilled() throws Exception {
        long killedCopiedPastCommit = 0;
        try (ContinuousProducer source = new ContinuousProducer()) {
            Process first = startMirror("g-pair");
            startMirror("g-pair");
            awaitMirrored(2_000);
            Map<Integer, String> ownersBefore = owners("g-pair");
            first.destroyForcibly();
            assertTrue(first.waitFor(30, TimeUnit.SECONDS));
            Map<Integer, Long> copiedPastCommit = copiedPastCommit("g-pair");
            awaitMirrored(source.sent() + 2_000);
            // the survivor owns every partition now: the others were the killed mirror's
            String survivor = owners("g-pair").get(0);
            for (Map.Entry<Integer, String> owner : ownersBefore.entrySet()) {
                if (!owner.getValue().equals(survivor)) {
                    killedCopiedPastCommit += copiedPastCommit.get(owner.getKey());
                }
            }
        }
        assertEveryLiveRecordMirroredOnce();
        assertEquals("the survivor's duplicates metric: what the killed mirror copied after its last commit",
            killedCopiedPastCommit, stopAndReadDuplicates(1));
    }
}
