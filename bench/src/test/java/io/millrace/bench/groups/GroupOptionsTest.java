package io.millrace.bench.groups;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import org.junit.Test;

public class GroupOptionsTest {

    @Test
    public void theDefaultsAreFiveWarmedRunsOfFiveSecondCommitsWithKafkasDefaultsAlongside() {
        GroupOptions o = GroupOptions.parse();
        assertEquals(5, o.runs());
        assertTrue(o.warmup());
        assertEquals(5.0, o.commitSeconds(), 0);
        assertEquals(100, o.heartbeatMs());
        assertTrue(o.kafkaDefaults());
        assertEquals("1g", o.heap());
        assertTrue(o.out().toString(), o.out().startsWith(Path.of("bench", "results")));
    }

    @Test
    public void quickIsTwoShortRunsWithoutWarmUpAndExplicitOptionsWinOverIt() {
        GroupOptions quick = GroupOptions.parse("--quick");
        assertEquals(2, quick.runs());
        assertEquals(1.0, quick.commitSeconds(), 0);
        assertFalse(quick.warmup());
        GroupOptions both = GroupOptions.parse("--runs", "3", "--quick", "--commit-seconds", "2.5");
        assertEquals(3, both.runs());
        assertEquals(2.5, both.commitSeconds(), 0);
    }

    @Test
    public void everyOptionIsRead() {
        GroupOptions o = GroupOptions.parse("--runs", "7", "--no-warmup", "--heartbeat-ms", "3000", "--no-kafka-defaults",
            "--heap", "2g", "--out", "here", "--data-dir", "there");
        assertEquals(7, o.runs());
        assertFalse(o.warmup());
        assertEquals(3000, o.heartbeatMs());
        assertFalse(o.kafkaDefaults());
        assertEquals("2g", o.heap());
        assertEquals(Path.of("here"), o.out());
        assertEquals(Path.of("there"), o.dataDir());
    }

    @Test
    public void helpAsksForTheUsage() {
        assertNull(GroupOptions.parse("--help"));
    }

    @Test
    public void misuseIsRefusedWithTheReason() {
        assertEquals("unknown option --scale",
            assertThrows(IllegalArgumentException.class, () -> GroupOptions.parse("--scale", "2")).getMessage());
        assertEquals("--runs needs a value",
            assertThrows(IllegalArgumentException.class, () -> GroupOptions.parse("--runs")).getMessage());
        assertEquals("--runs must be positive, not 0",
            assertThrows(IllegalArgumentException.class, () -> GroupOptions.parse("--runs", "0")).getMessage());
        assertThrows(NumberFormatException.class, () -> GroupOptions.parse("--commit-seconds", "five"));
    }
}
