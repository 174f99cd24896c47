package io.millrace.examples.generator;

import java.util.Arrays;
import java.util.Random;

/**
 * Ranks {@code 0..n-1} drawn with probability proportional to {@code 1 / (rank + 1)^exponent}: the long
 * tail of web traffic, where a handful of pages, queries or members account for much of it and most are
 * seen rarely. With an exponent of 1 over 3,000 ranks the first draws about 12% of the time and the
 * 1,500th about 0.008%. Immutable and thread-safe; the caller's {@link Random} decides the draws.
 */
final class ZipfDistribution {

    /** cumulative[k] = P(rank <= k); the last entry is exactly 1 so every draw finds a rank. */
    private final double[] cumulative;

    ZipfDistribution(int ranks, double exponent) {
        if (ranks < 1) {
            throw new IllegalArgumentException("A distribution needs at least one rank, not " + ranks);
        }
        cumulative = new double[ranks];
        double sum = 0;
        for (int k = 0; k < ranks; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < ranks; k++) {
            cumulative[k] /= sum;
        }
        cumulative[ranks - 1] = 1.0;
    }

    int ranks() {
        return cumulative.length;
    }

    /** The probability of {@code rank}. */
    double probability(int rank) {
        return rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1];
    }

    /** One rank, by inverting the cumulative distribution with a binary search. */
    int sample(Random random) {
        int found = Arrays.binarySearch(cumulative, random.nextDouble());
        // not found: -(insertion point) - 1, and the insertion point is the first rank whose cumulative exceeds the draw
        return found >= 0 ? found : -found - 1;
    }
}
