package io.millrace.bench.profile;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class FlameGraphCommandTest {

    @Test
    public void keepsOnlyTheNamedThreadsWithTheirWholeStacks() {
        CallTree all = new CallTree("all");
        all.add(List.of("main", "a.Fill.run", "a.Producer.send"), 7);
        all.add(List.of("LocalJobRunner Map Task Executor #N", "a.Mapper.run", "a.Mapper.map"), 3);
        all.add(List.of("LocalJobRunner Map Task Executor #N", "a.Mapper.run"), 2);
        all.add(List.of("appender-N", "a.Files.write"), 4);
        CallTree load = FlameGraphCommand.threads(all, List.of("LocalJobRunner", "appender"));
        assertEquals(9, load.totalSamples());
        assertEquals(List.of("LocalJobRunner Map Task Executor #N", "appender-N"),
            load.root().children().stream().map(CallTree.Node::frame).toList());
        CallTree.Node run = load.root().children().get(0).children().get(0);
        assertEquals(5, run.samples());
        assertEquals(2, run.selfSamples());
    }
}
