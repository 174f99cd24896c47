package io.millrace.bench.groups;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class RoundOrderTest {

    private static final List<String> SIDES = List.of("Millrace", "Kafka", "Kafka defaults");

    @Test
    public void theSidesGoInTheirOrderInOddRoundsAndTheReverseInEvenOnes() {
        assertEquals(SIDES, GroupBenchmark.order(1, SIDES));
        assertEquals(List.of("Kafka defaults", "Kafka", "Millrace"), GroupBenchmark.order(2, SIDES));
        assertEquals("the warm-up round is an even one", GroupBenchmark.order(2, SIDES), GroupBenchmark.order(0, SIDES));
        assertEquals("the sides are not reordered in place", List.of("Millrace", "Kafka", "Kafka defaults"), SIDES);
    }
}
