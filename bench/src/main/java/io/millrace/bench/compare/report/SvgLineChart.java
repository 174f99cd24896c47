package io.millrace.bench.compare.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A line chart of rates over time as inline SVG, one line per series: x in seconds since the
 * start of the run, y the rate of each interval plotted at the interval's middle. A missing value
 * breaks the line rather than being drawn as zero. Renders as nothing without any value.
 */
final class SvgLineChart {

    /** One series: the rate of each consecutive interval of {@code intervalSeconds}. */
    record Line(String label, String colour, double intervalSeconds, List<Double> values) {
    }

    private static final int WIDTH = 720;
    private static final int HEIGHT = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 16;
    private static final int LEGEND_LEFT = 20;

    private final String title;
    private final String valueLabel;
    private final List<Line> lines = new ArrayList<>();

    SvgLineChart(String title, String valueLabel) {
        this.title = title;
        this.valueLabel = valueLabel;
    }

    SvgLineChart line(Line line) {
        lines.add(line);
        return this;
    }

    boolean hasValues() {
        return lines.stream().anyMatch(l -> l.intervalSeconds() > 0 && l.values().stream().anyMatch(SvgLineChart::usable));
    }

    String render() {
        if (!hasValues()) {
            return "";
        }
        List<Line> drawn = lines.stream().filter(l -> l.intervalSeconds() > 0).toList();
        List<String> labels = drawn.stream().map(Line::label).toList();
        int legendRows = Svg.legendRows(labels, WIDTH - LEGEND_LEFT - RIGHT);
        int height = HEIGHT + legendRows * 18;
        double bottom = HEIGHT - 70;
        double right = WIDTH - RIGHT;
        Axis y = Axis.linear(drawn.stream().flatMap(l -> l.values().stream())
            .filter(SvgLineChart::usable).mapToDouble(Double::doubleValue).max().orElse(1));
        Axis x = Axis.linear(drawn.stream().mapToDouble(l -> l.values().size() * l.intervalSeconds()).max().orElse(1));
        Svg svg = new Svg(WIDTH, height, title);
        svg.valueAxis(y, LEFT, right, TOP, bottom, valueLabel);
        for (double tick : x.ticks()) {
            double px = LEFT + x.fraction(tick) * (right - LEFT);
            svg.line(px, bottom, px, bottom + 4, Svg.INK, 1);
            svg.text(px, bottom + 17, Numbers.compact(tick), "middle", null);
        }
        svg.text((LEFT + right) / 2, bottom + 34, "seconds since the start of the run", "middle", null);
        for (Line line : drawn) {
            for (List<double[]> segment : segments(line, x, y, right, bottom)) {
                svg.polyline(segment, line.colour(), line.label());
            }
        }
        svg.legend(labels, drawn.stream().map(Line::colour).toList(), LEGEND_LEFT, right, bottom + 60);
        return svg.end();
    }

    /** The line's points in pixels, split where a value is missing. */
    private static List<List<double[]>> segments(Line line, Axis x, Axis y, double right, double bottom) {
        List<List<double[]>> segments = new ArrayList<>();
        List<double[]> current = new ArrayList<>();
        for (int i = 0; i < line.values().size(); i++) {
            Double v = line.values().get(i);
            if (!usable(v)) {
                if (!current.isEmpty()) {
                    segments.add(current);
                }
                current = new ArrayList<>();
                continue;
            }
            double seconds = (i + 0.5) * line.intervalSeconds();
            current.add(new double[] {
                LEFT + x.fraction(seconds) * (right - LEFT), bottom - y.fraction(v) * (bottom - TOP)});
        }
        if (!current.isEmpty()) {
            segments.add(current);
        }
        return segments;
    }

    private static boolean usable(Double v) {
        return v != null && Double.isFinite(v) && v >= 0;
    }
}
