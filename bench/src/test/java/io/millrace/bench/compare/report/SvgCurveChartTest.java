package io.millrace.bench.compare.report;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

public class SvgCurveChartTest {

    private static final List<String> STEPS = List.of("1", "10", "100", "1,000");

    private static SvgCurveChart.Point p(double median) {
        return new SvgCurveChart.Point(median, median * 0.9, median * 1.1);
    }

    @Test
    public void drawsALinePerSeriesThroughItsMediansWithAWhiskerAndAMarkerPerPoint() {
        String svg = new SvgCurveChart("throughput", "partitions", "records/s", STEPS)
            .series("Millrace broker", "#56B4E9", List.of(p(100), p(90), p(80), p(70)))
            .series("Kafka broker", "#E69F00", List.of(p(100), p(100), p(50), p(10)))
            .render();
        assertTrue(svg.startsWith("<svg") && svg.endsWith("</svg>"));
        assertEquals(2, count(svg, "<polyline"));
        assertEquals(8, count(svg, "<rect x=") - 2); // two legend swatches
        for (String step : STEPS) {
            assertTrue(step, svg.contains(">" + step + "</text>"));
        }
        assertTrue(svg.contains("Kafka broker, 1,000: 10.0 (9.00 to 11.0)"));
        assertTrue(svg.contains(">partitions</text>") && svg.contains(">records/s</text>"));
    }

    @Test
    public void aMissingPointBreaksTheLineAndNoValuesRenderNothing() {
        String svg = new SvgCurveChart("t", "x", "y", STEPS)
            .series("a", "#000000", List.of(p(1), p(2), SvgCurveChart.Point.NONE, p(4)))
            .render();
        assertEquals("the lone last point has a marker but no line", 1, count(svg, "<polyline"));
        assertEquals("", new SvgCurveChart("t", "x", "y", STEPS)
            .series("a", "#000000", List.of(SvgCurveChart.Point.NONE, SvgCurveChart.Point.NONE, SvgCurveChart.Point.NONE,
                new SvgCurveChart.Point(Double.NaN, null, null))).render());
    }

    @Test
    public void aSeriesNeedsAPointPerStep() {
        assertThrows(IllegalArgumentException.class,
            () -> new SvgCurveChart("t", "x", "y", STEPS).series("a", "#000000", List.of(p(1))));
    }

    @Test
    public void eachBrokerHasTheColourOfKafkasClientOnItInTheComparisonsReport() {
        assertEquals("#56B4E9", SvgCurveChart.colourOf("millrace"));
        assertEquals("#E69F00", SvgCurveChart.colourOf("kafka"));
    }

    private static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
