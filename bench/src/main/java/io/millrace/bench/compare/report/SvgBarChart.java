package io.millrace.bench.compare.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A grouped bar chart as inline SVG: per group (a figure, a percentile, a ceiling) one bar per
 * series (a cell), each bar the median with a whisker from the min to the max of the runs.
 * Bars without a value are marked "n/a"; a chart without any value renders as nothing.
 */
final class SvgBarChart {

    /** One bar: the height, and the whisker's ends (null for none). */
    record Bar(Double value, Double low, Double high) {

        static Bar of(BenchResults.Stats s) {
            return s == null ? new Bar(null, null, null) : new Bar(s.median(), s.min(), s.max());
        }
    }

    private record Group(String label, List<Bar> bars) {
    }

    private static final int HEIGHT = 260;
    private static final int LEFT = 70;
    private static final int RIGHT = 16;
    private static final int TOP = 22;
    private static final int BAR = 26;
    private static final int GROUP_GAP = 28;

    private final String title;
    private final String valueLabel;
    private final List<String> seriesLabels = new ArrayList<>();
    private final List<String> seriesColours = new ArrayList<>();
    private final List<Group> groups = new ArrayList<>();
    private boolean log;

    SvgBarChart(String title, String valueLabel) {
        this.title = title;
        this.valueLabel = valueLabel;
    }

    SvgBarChart series(String label, String colour) {
        seriesLabels.add(label);
        seriesColours.add(colour);
        return this;
    }

    SvgBarChart logScale() {
        log = true;
        return this;
    }

    /** A group's bars, one per series in the order they were added. */
    SvgBarChart group(String label, List<Bar> bars) {
        groups.add(new Group(label, List.copyOf(bars)));
        return this;
    }

    boolean hasValues() {
        return groups.stream().flatMap(g -> g.bars().stream()).anyMatch(b -> usable(b.value()));
    }

    /** The SVG, or the empty string when there is nothing to draw. */
    String render() {
        if (!hasValues()) {
            return "";
        }
        double perGroup = seriesLabels.size() * BAR + GROUP_GAP;
        for (Group g : groups) {
            perGroup = Math.max(perGroup, g.label().length() * Svg.CHAR_WIDTH + 12);
        }
        int width = (int) Math.max(380, LEFT + RIGHT + groups.size() * perGroup);
        int legendRows = Svg.legendRows(seriesLabels, width - LEFT - RIGHT);
        int height = HEIGHT + legendRows * 18;
        double bottom = HEIGHT - 40;
        Axis axis = axis();
        Svg svg = new Svg(width, height, title);
        svg.valueAxis(axis, LEFT, width - RIGHT, TOP, bottom, valueLabel);
        double plotWidth = width - LEFT - RIGHT;
        double groupWidth = plotWidth / groups.size();
        for (int g = 0; g < groups.size(); g++) {
            Group group = groups.get(g);
            double groupLeft = LEFT + g * groupWidth + (groupWidth - seriesLabels.size() * BAR) / 2;
            for (int s = 0; s < seriesLabels.size() && s < group.bars().size(); s++) {
                drawBar(svg, axis, group.bars().get(s), groupLeft + s * BAR, bottom, s, group.label());
            }
            svg.text(LEFT + (g + 0.5) * groupWidth, bottom + 18, group.label(), "middle", null);
        }
        svg.legend(seriesLabels, seriesColours, LEFT, width - RIGHT, HEIGHT - 6);
        return svg.end();
    }

    private void drawBar(Svg svg, Axis axis, Bar bar, double x, double bottom, int series, String group) {
        double plotHeight = bottom - TOP;
        if (!usable(bar.value())) {
            svg.text(x + BAR / 2.0, bottom - 4, Numbers.NOT_AVAILABLE, "middle", "font-size=\"10\"");
            return;
        }
        double top = bottom - axis.fraction(bar.value()) * plotHeight;
        String tooltip = seriesLabels.get(series) + ", " + group + ": " + Numbers.format(bar.value())
            + (bar.low() != null && bar.high() != null
                ? " (min " + Numbers.format(bar.low()) + ", max " + Numbers.format(bar.high()) + ")" : "");
        svg.rect(x + 2, top, BAR - 4, bottom - top, seriesColours.get(series), tooltip);
        double labelAbove = top;
        if (usable(bar.low()) && usable(bar.high())) {
            double yLow = bottom - axis.fraction(bar.low()) * plotHeight;
            double yHigh = bottom - axis.fraction(bar.high()) * plotHeight;
            double mid = x + BAR / 2.0;
            svg.line(mid, yLow, mid, yHigh, Svg.INK, 1.2);
            svg.line(mid - 5, yLow, mid + 5, yLow, Svg.INK, 1.2);
            svg.line(mid - 5, yHigh, mid + 5, yHigh, Svg.INK, 1.2);
            labelAbove = Math.min(top, yHigh);
        }
        svg.text(x + BAR / 2.0, labelAbove - 4, Numbers.label(bar.value()), "middle", "font-size=\"10\"");
    }

    private Axis axis() {
        double max = 0;
        double min = Double.MAX_VALUE;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                for (Double v : new Double[] {b.value(), b.low(), b.high()}) {
                    if (usable(v)) {
                        max = Math.max(max, v);
                        min = Math.min(min, v);
                    }
                }
            }
        }
        return log ? Axis.logarithmic(min, max) : Axis.linear(max);
    }

    /** On a log scale zero and below cannot be drawn; on a linear one neither can negatives of a rate. */
    private boolean usable(Double v) {
        return v != null && Double.isFinite(v) && (log ? v > 0 : v >= 0);
    }
}
