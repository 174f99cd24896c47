package io.millrace.bench.compare;

import static org.junit.Assert.assertTrue;

import io.millrace.bench.profile.CallTree;
import io.millrace.bench.profile.PerfScriptSamples;
import java.util.List;
import org.junit.Test;

public class SystemSharesTest {

    @Test
    public void splitsTheCpusTimeIntoIdleKernelAndUserAndListsProcessesThreadsAndFrames() {
        CallTree tree = new CallTree("cell");
        tree.add(List.of(PerfScriptSamples.IDLE, PerfScriptSamples.IDLE), 20);
        tree.add(List.of("broker JVM", "millrace-network-thread-N", "append", "[k] copy_folio_from_iter_atomic"), 50);
        tree.add(List.of("broker JVM", "millrace-network-thread-N", "append"), 10);
        tree.add(List.of("clients JVM", "main", "send"), 19);
        tree.add(List.of("clients JVM", "GC Thread#N", "[k] clear_page"), 1);

        String md = SystemShares.of(tree, "1. producer, tuned: both CPUs", "x--system.svg", 3);

        assertTrue(md, md.contains("100 samples, flame graph `x--system.svg`: idle 20.0 %, kernel 51.0 %, user 29.0 %"));
        assertTrue(md, md.contains("| 60.0 % | 83 % | **broker JVM** |"));
        assertTrue(md, md.contains("| 60.0 % | 83 % | millrace-network-thread-N |"));
        assertTrue(md, md.contains("| 20.0 % | 5 % | **clients JVM** |"));
        assertTrue("threads of 1 % and more are listed: " + md, md.contains("| 1.0 % | 100 % | GC Thread#N |"));
        assertTrue(md, md.contains("| 20.0 % |  | **idle** |"));
        assertTrue(md, md.contains("| 50.0 | `[k] copy_folio_from_iter_atomic` |"));
        assertTrue("the top 3 frames only: " + md, !md.contains("`[k] clear_page`"));
    }

    @Test
    public void aCellWithoutSamplesSaysSo() {
        assertTrue(SystemShares.of(new CallTree("cell"), "t", "x.svg", 3).contains("No samples."));
    }
}
