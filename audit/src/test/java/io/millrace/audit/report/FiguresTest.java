package io.millrace.audit.report;

import static org.junit.Assert.assertEquals;

import java.util.Locale;
import java.util.Random;
import org.junit.Test;

/** The hand-written figures are what String.format gives in Locale.ROOT. */
public class FiguresTest {

    @Test
    public void groupedIsTheFormattersCommaGrouping() {
        long[] edges = {0, 7, -7, 999, 1_000, -1_000, 999_999, 1_000_000, 12_345_678, Long.MAX_VALUE, Long.MIN_VALUE};
        for (long n : edges) {
            assertEquals(String.format(Locale.ROOT, "%,d", n), Figures.grouped(n));
        }
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            long n = random.nextLong() >> random.nextInt(64);
            assertEquals(String.format(Locale.ROOT, "%,d", n), Figures.grouped(n));
        }
    }

    @Test
    public void twoDecimalsIsTheFormattersForPercentsOfCounts() {
        Random random = new Random(11);
        for (int i = 0; i < 10_000; i++) {
            long expected = 1 + random.nextInt(1_000_000);
            long counted = random.nextInt(1_100_000);
            double percent = 100.0 * counted / expected;
            assertEquals(counted + " of " + expected, String.format(Locale.ROOT, "%.2f", percent),
                Figures.twoDecimals(percent));
        }
        assertEquals("100.00", Figures.twoDecimals(100));
        assertEquals("0.05", Figures.twoDecimals(0.05));
        assertEquals("Infinity", Figures.twoDecimals(Double.POSITIVE_INFINITY));
    }

    @Test
    public void columnsArePaddedOnTheirSide() {
        StringBuilder b = new StringBuilder();
        Figures.left(b, "ab", 4).append('|');
        Figures.right(b, "cd", 4).append('|');
        Figures.left(b, "longer", 3).append('|');
        assertEquals(String.format(Locale.ROOT, "%-4s|%4s|%-3s|", "ab", "cd", "longer"), b.toString());
    }
}
