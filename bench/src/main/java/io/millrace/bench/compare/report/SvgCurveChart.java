package io.millrace.bench.compare.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A cost curve as inline SVG: a figure (records/s, MB of memory, seconds) against a load that grows
 * by steps (1, 10, 100, 1,000 partitions), one line per broker through the medians of the runs, each
 * point with a whisker from their min to their max. The steps are evenly spaced whatever their
 * values, which for steps of a decade each is a logarithmic load axis; where a line bends is then
 * where the cost per step grows. A missing value breaks the line; a chart without any value renders
 * as nothing.
 */
public final class SvgCurveChart {

    /** One point: the median, and the whisker's ends (null for none); all null for no value. */
    public record Point(Double median, Double min, Double max) {

        public static final Point NONE = new Point(null, null, null);

        boolean usable() {
            return median != null && Double.isFinite(median) && median >= 0;
        }
    }

    private record Series(String label, String colour, List<Point> points) {
    }

    private static final int WIDTH = 560;
    private static final int HEIGHT = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 24;
    private static final int TOP = 16;
    private static final int LEGEND_LEFT = 20;

    private final String title;
    private final String loadLabel;
    private final String valueLabel;
    private final List<String> steps;
    private final List<Series> series = new ArrayList<>();

    /** {@code steps}: the load's labels along the bottom, in order. */
    public SvgCurveChart(String title, String loadLabel, String valueLabel, List<String> steps) {
        this.title = title;
        this.loadLabel = loadLabel;
        this.valueLabel = valueLabel;
        this.steps = List.copyOf(steps);
    }

    /** A line: one point per step, in the steps' order. */
    public SvgCurveChart series(String label, String colour, List<Point> points) {
        if (points.size() != steps.size()) {
            throw new IllegalArgumentException(points.size() + " points for " + steps.size() + " steps");
        }
        series.add(new Series(label, colour, List.copyOf(points)));
        return this;
    }

    public boolean hasValues() {
        return series.stream().anyMatch(s -> s.points().stream().anyMatch(Point::usable));
    }

    public String render() {
        if (!hasValues()) {
            return "";
        }
        List<String> labels = series.stream().map(Series::label).toList();
        int height = HEIGHT + Svg.legendRows(labels, WIDTH - LEGEND_LEFT - RIGHT) * 18;
        double bottom = HEIGHT - 70;
        double right = WIDTH - RIGHT;
        Axis y = Axis.linear(series.stream().flatMap(s -> s.points().stream()).filter(Point::usable)
            .mapToDouble(p -> p.max() != null && Double.isFinite(p.max()) ? Math.max(p.max(), p.median()) : p.median())
            .max().orElse(1));
        Svg svg = new Svg(WIDTH, height, title);
        svg.valueAxis(y, LEFT, right, TOP, bottom, valueLabel);
        for (int i = 0; i < steps.size(); i++) {
            double px = x(i, right);
            svg.line(px, bottom, px, bottom + 4, Svg.INK, 1);
            svg.text(px, bottom + 17, steps.get(i), "middle", null);
        }
        svg.text((LEFT + right) / 2, bottom + 34, loadLabel, "middle", null);
        for (Series s : series) {
            draw(svg, s, y, right, bottom);
        }
        svg.legend(labels, series.stream().map(Series::colour).toList(), LEGEND_LEFT, right, bottom + 60);
        return svg.end();
    }

    private void draw(Svg svg, Series s, Axis y, double right, double bottom) {
        List<double[]> segment = new ArrayList<>();
        for (int i = 0; i < s.points().size(); i++) {
            Point p = s.points().get(i);
            if (!p.usable()) {
                line(svg, s, segment);
                segment = new ArrayList<>();
                continue;
            }
            double px = x(i, right);
            double py = pixel(y, p.median(), bottom);
            segment.add(new double[] {px, py});
            if (p.min() != null && p.max() != null && Double.isFinite(p.min()) && Double.isFinite(p.max())) {
                svg.line(px, pixel(y, p.min(), bottom), px, pixel(y, p.max(), bottom), s.colour(), 1);
            }
            svg.rect(px - 3, py - 3, 6, 6, s.colour(), s.label() + ", " + steps.get(i) + ": " + Numbers.format(p.median())
                + (p.min() != null && p.max() != null ? " (" + Numbers.format(p.min()) + " to " + Numbers.format(p.max()) + ")"
                : ""));
        }
        line(svg, s, segment);
    }

    private static void line(Svg svg, Series s, List<double[]> segment) {
        if (segment.size() > 1) {
            svg.polyline(segment, s.colour(), s.label());
        }
    }

    /** The step's position: the steps spread evenly, half a step's width in from either end. */
    private double x(int step, double right) {
        double width = (right - LEFT) / steps.size();
        return LEFT + (step + 0.5) * width;
    }

    private static double pixel(Axis y, double value, double bottom) {
        return bottom - y.fraction(value) * (bottom - TOP);
    }

    /** Text escaped for HTML and SVG, for pages that hold these charts. */
    public static String escape(String text) {
        return Xml.escape(text);
    }

    /** The colour the comparison's report gives Kafka's client on {@code broker} ("millrace" or "kafka"). */
    public static String colourOf(String broker) {
        return Palette.withKafkaClient(broker);
    }
}
