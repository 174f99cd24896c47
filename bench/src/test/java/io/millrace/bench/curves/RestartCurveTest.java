package io.millrace.bench.curves;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class RestartCurveTest {

    @Test
    public void fullSizeStepsByDecadesUpToTenGigabytesInAThousandSegments() {
        List<RestartCurve.Step> steps = RestartCurve.steps(10_000_000_000L, 10_000_000, false);
        assertEquals(List.of(new RestartCurve.Step(100_000_000L, "100 MB, 10 segments"),
            new RestartCurve.Step(1_000_000_000L, "1 GB, 100 segments"),
            new RestartCurve.Step(10_000_000_000L, "10 GB, 1,000 segments")), steps);
    }

    @Test
    public void quickStepsAreATenthAndAllOfIt() {
        assertEquals(List.of("20 MB, 10 segments", "200 MB, 100 segments"),
            RestartCurve.steps(200_000_000L, 2_000_000, true).stream().map(RestartCurve.Step::label).toList());
    }

    @Test
    public void sizesKeepThreeSignificantDigits() {
        assertEquals("2.5 GB", RestartCurve.size(2_500_000_000L));
        assertEquals("123 MB", RestartCurve.size(123_456_789L));
        assertEquals("1 GB", RestartCurve.size(1_000_000_000L));
    }

    @Test
    public void theRestartCurveShrinksToWhatBothBrokersCopiesLeaveRoomFor() {
        assertEquals(10_000_000_000L, CurveBenchmark.fitting(10_000_000_000L, 70_000_000_000L));
        long fits = CurveBenchmark.fitting(10_000_000_000L, 13_000_000_000L);
        assertEquals((long) (10_000_000_000L / 2.3), fits);
        assertEquals(0, CurveBenchmark.fitting(10_000_000_000L, 1_000_000_000L));
    }
}
