package io.millrace.bench.profile;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.Test;

public class CallTreeTest {

    @Test
    public void eachFrameCountsTheSamplesThatPassThroughIt() {
        CallTree tree = new CallTree("all");
        tree.add(List.of("main", "run", "parse"));
        tree.add(List.of("main", "run", "parse"));
        tree.add(List.of("main", "run", "write"));
        tree.add(List.of("main", "run"));
        tree.add(List.of("io", "poll"), 3);

        assertEquals(7, tree.totalSamples());
        List<CallTree.Node> threads = tree.root().children();
        assertEquals("the busiest first", List.of("main", "io"), threads.stream().map(CallTree.Node::frame).toList());
        CallTree.Node run = threads.get(0).children().get(0);
        assertEquals(4, run.samples());
        assertEquals("one sample stopped in run itself", 1, run.selfSamples());
        assertEquals(List.of(2L, 1L), run.children().stream().map(CallTree.Node::samples).toList());
    }

    @Test
    public void selfTimesAddUpAFrameOverEveryPathItIsOn() {
        CallTree tree = new CallTree("all");
        tree.add(List.of("a", "hash"), 2);
        tree.add(List.of("b", "hash"), 3);
        tree.add(List.of("b", "copy"), 4);

        List<Map.Entry<String, Long>> self = tree.selfTimes();
        assertEquals(Map.entry("hash", 5L), self.get(0));
        assertEquals(Map.entry("copy", 4L), self.get(1));
        assertEquals("callers with no samples of their own are not listed", 2, self.size());
    }
}
