package io.millrace.bench.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class PerfScriptSamplesTest {

    /** What {@code perf script -F comm,pid,tid,time,ip,sym,dso} prints: a header, frames innermost first, a blank line. */
    private static final String SCRIPT = String.join("\n",
        "swapper     0/0     1000.000100: ",
        "\tffffffff821f236b pv_native_safe_halt ([kernel.kallsyms])",
        "\tffffffff813c38a6 do_idle ([kernel.kallsyms])",
        "",
        "millrace-networ  200/213     1000.000200: ",
        "\tffffffff81aa0001 copy_folio_from_iter_atomic ([kernel.kallsyms])",
        "\tffffffff81aa0002 ext4_buffered_write_iter ([kernel.kallsyms])",
        "\t7f00000000a1 void io.millrace.broker.log.LogSegment.append(java.nio.ByteBuffer) (/tmp/perf-200.map)",
        "\t7f00000000a2 Interpreter (/tmp/perf-200.map)",
        "",
        "millrace-networ  200/214     1000.000300: ",
        "\tffffffff81aa0001 copy_folio_from_iter_atomic ([kernel.kallsyms])",
        "\tffffffff81aa0002 ext4_buffered_write_iter ([kernel.kallsyms])",
        "\t7f00000000a1 void io.millrace.broker.log.LogSegment.append(java.nio.ByteBuffer) (/tmp/perf-200.map)",
        "\t7f00000000a2 Interpreter (/tmp/perf-200.map)",
        "",
        "C2 CompilerThre  300/301     1000.000400: ",
        "\t7f00000000b1 [unknown] (/usr/lib/jvm/java-17/lib/server/libjvm.so)",
        "",
        "java  300/300     1000.000500: ",
        "\t7f00000000c1 void Foo$$Lambda$76/0x00007fd6b80f4228.run() (/tmp/perf-300.map)",
        "",
        "java  300/300     1000.900000: ",
        "\t7f00000000c1 void Late.run() (/tmp/perf-300.map)",
        "");

    @Test
    public void eachSampleIsItsProcessThenItsThreadThenItsStackOutermostFirst() throws Exception {
        Map<String, CallTree> trees = read(Map.of("run", List.of(window(1000.0, 1000.5))));
        CallTree tree = trees.get("run");

        assertEquals("the sample after the window is left out", 5, tree.totalSamples());
        assertEquals(List.of("broker", "clients", "idle"), tree.root().children().stream().map(CallTree.Node::frame).toList());
        CallTree.Node network = tree.root().children().get(0).children().get(0);
        assertEquals("millrace-networ", network.frame());
        assertEquals(2, network.samples());
        CallTree.Node interpreter = network.children().get(0);
        assertEquals("Interpreter", interpreter.frame());
        CallTree.Node append = interpreter.children().get(0);
        assertEquals("compiled frames as the flight recordings name them", "io.millrace.broker.log.LogSegment.append",
            append.frame());
        assertEquals("[k] ext4_buffered_write_iter", append.children().get(0).frame());
        assertEquals("[k] copy_folio_from_iter_atomic", append.children().get(0).children().get(0).frame());
        assertEquals(Map.entry("[k] copy_folio_from_iter_atomic", 2L), tree.selfTimes().get(0));
    }

    @Test
    public void threadNumbersAndLambdaAddressesAreDroppedAndUnknownFramesNameTheirLibrary() throws Exception {
        CallTree tree = read(Map.of("all", List.of())).get("all");

        CallTree.Node clients = child(tree.root(), "clients");
        CallTree.Node compiler = child(clients, "CN CompilerThre");
        assertEquals("[unknown in libjvm.so]", compiler.children().get(0).frame());
        CallTree.Node main = child(clients, "java");
        assertNotNull(child(main, "Foo$$Lambda.run"));
        assertEquals("a key without windows takes every sample", 6, tree.totalSamples());
    }

    @Test
    public void theIdleLoopIsOneFrameWhateverItsStack() throws Exception {
        CallTree tree = read(Map.of("all", List.of())).get("all");

        CallTree.Node idle = child(tree.root(), PerfScriptSamples.IDLE);
        assertEquals(1, idle.samples());
        assertEquals(List.of(PerfScriptSamples.IDLE), idle.children().stream().map(CallTree.Node::frame).toList());
        assertEquals(1, idle.children().get(0).selfSamples());
    }

    @Test
    public void aSampleGoesToTheFirstKeyWhoseWindowHoldsIt() throws Exception {
        Map<String, List<TimeWindow>> windows = new java.util.LinkedHashMap<>();
        windows.put("first", List.of(window(1000.0, 1000.00025)));
        windows.put("second", List.of(window(1000.00025, 1000.0006)));
        Map<String, CallTree> trees = read(windows);

        assertEquals(2, trees.get("first").totalSamples());
        assertEquals(3, trees.get("second").totalSamples());
    }

    private static Map<String, CallTree> read(Map<String, List<TimeWindow>> windows) throws Exception {
        return PerfScriptSamples.read(new BufferedReader(new StringReader(SCRIPT)), windows,
            pid -> pid == 200 ? "broker" : pid == 300 ? "clients" : "other");
    }

    private static TimeWindow window(double from, double to) {
        return new TimeWindow(instant(from), instant(to));
    }

    private static Instant instant(double seconds) {
        long whole = (long) seconds;
        return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e9));
    }

    private static CallTree.Node child(CallTree.Node node, String frame) {
        return node.children().stream().filter(c -> c.frame().equals(frame)).findFirst()
            .orElseThrow(() -> new AssertionError("no " + frame + " under " + node.frame()));
    }
}
