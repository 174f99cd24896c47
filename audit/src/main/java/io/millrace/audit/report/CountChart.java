package io.millrace.audit.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A line chart, as inline SVG, of one topic's counts per window: a line per tier over window start
 * (linear in time, UTC), events per window upwards from 0, both axes labelled, a legend on top. With
 * few windows every point is also marked, with its number as a tooltip.
 */
final class CountChart {

    /** One line: a tier's count in each of the chart's windows. */
    record Series(String name, long[] counts) {
    }

    static final int WIDTH = 760;
    private static final int PLOT_HEIGHT = 170;
    private static final double LEFT = 74;
    private static final double RIGHT = 18;
    private static final double BOTTOM = 44;
    private static final double LEGEND_LINE = 16;
    private static final double CHAR_WIDTH = 6.6;
    private static final int MARKED_POINTS = 48;
    /** At most this many steps up the value axis. */
    private static final int Y_TICKS = 5;
    private static final int X_TICKS = 6;
    private static final String PRODUCER_COLOUR = "#222222";
    private static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
        "#e377c2", "#17becf", "#bcbd22"};

    private final List<Long> windows;
    private final List<Series> series;
    private final List<List<Integer>> legendLines;
    private final double top;
    /** The value axis: 0 to yMax in steps of yStep, a 1, 2 or 5 times a power of ten. */
    private final long yStep;
    private final long yMax;

    private CountChart(List<Long> windows, List<Series> series) {
        this.windows = windows;
        this.series = series;
        this.legendLines = legendLines(series);
        this.top = 8 + legendLines.size() * LEGEND_LINE + 8;
        long max = 1;
        for (Series s : series) {
            for (long c : s.counts()) {
                max = Math.max(max, c);
            }
        }
        this.yStep = niceCeiling(Math.max(1, (max + Y_TICKS - 1) / Y_TICKS));
        this.yMax = (max + yStep - 1) / yStep * yStep;
    }

    /**
     * Appends the chart of {@code series} (the first is the producers', drawn dashed) over {@code windows}
     * (window starts, ascending, at least one) to {@code page}.
     */
    static void render(Markup page, String title, List<Long> windows, List<Series> series) {
        new CountChart(windows, series).draw(page, title);
    }

    /** The smallest 1, 2 or 5 times a power of ten that is at least {@code v} ({@code v} itself beyond 10^17). */
    static long niceCeiling(long v) {
        long power = 1;
        while (power <= 100_000_000_000_000_000L) {
            for (long step : new long[] {1, 2, 5}) {
                if (step * power >= v) {
                    return step * power;
                }
            }
            power *= 10;
        }
        return v;
    }

    private void draw(Markup page, String title) {
        double height = top + PLOT_HEIGHT + BOTTOM;
        page.open("svg", "class", "count-chart", "role", "img", "width", Integer.toString(WIDTH), "height",
            Markup.px(height), "viewBox", "0 0 " + WIDTH + " " + Markup.px(height), "font-family", "sans-serif",
            "font-size", "11");
        page.element("title", title);
        legend(page);
        yAxis(page);
        xAxis(page);
        for (int i = 0; i < series.size(); i++) {
            line(page, series.get(i), colour(i), i == 0);
        }
        page.close("svg");
    }

    private static String colour(int index) {
        return index == 0 ? PRODUCER_COLOUR : PALETTE[(index - 1) % PALETTE.length];
    }

    private static List<List<Integer>> legendLines(List<Series> series) {
        List<List<Integer>> lines = new ArrayList<>();
        List<Integer> line = new ArrayList<>();
        double x = LEFT;
        for (int i = 0; i < series.size(); i++) {
            double w = legendEntryWidth(series.get(i));
            if (!line.isEmpty() && x + w > WIDTH - RIGHT) {
                lines.add(line);
                line = new ArrayList<>();
                x = LEFT;
            }
            line.add(i);
            x += w;
        }
        lines.add(line);
        return lines;
    }

    private static double legendEntryWidth(Series s) {
        return 28 + s.name().length() * CHAR_WIDTH + 14;
    }

    private void legend(Markup page) {
        double y = 8 + LEGEND_LINE / 2;
        for (List<Integer> line : legendLines) {
            double x = LEFT;
            for (int i : line) {
                page.empty("line", "x1", Markup.px(x), "y1", Markup.px(y), "x2", Markup.px(x + 22), "y2", Markup.px(y),
                    "stroke", colour(i), "stroke-width", "2.5");
                page.element("text", series.get(i).name(), "x", Markup.px(x + 28), "y", Markup.px(y + 4));
                x += legendEntryWidth(series.get(i));
            }
            y += LEGEND_LINE;
        }
    }

    private double x(long windowStart) {
        long first = windows.get(0);
        long span = windows.get(windows.size() - 1) - first;
        double plotWidth = WIDTH - LEFT - RIGHT;
        return span == 0 ? LEFT + plotWidth / 2 : LEFT + plotWidth * (windowStart - first) / span;
    }

    private double y(long count) {
        return top + PLOT_HEIGHT - (double) PLOT_HEIGHT * count / yMax;
    }

    private void yAxis(Markup page) {
        for (long value = 0; value <= yMax; value += yStep) {
            String y = Markup.px(y(value));
            page.empty("line", "x1", Markup.px(LEFT), "y1", y, "x2", Markup.px(WIDTH - RIGHT), "y2", y,
                "stroke", value == 0 ? "#888888" : "#e3e3e3", "stroke-width", "1");
            page.element("text", Markup.count(value), "x", Markup.px(LEFT - 6), "y", Markup.px(y(value) + 4),
                "text-anchor", "end");
        }
        double middle = top + PLOT_HEIGHT / 2.0;
        page.element("text", "events per window", "x", "14", "y", Markup.px(middle), "text-anchor", "middle",
            "transform", "rotate(-90 14 " + Markup.px(middle) + ")");
    }

    private void xAxis(Markup page) {
        double base = top + PLOT_HEIGHT;
        int every = Math.max(1, (int) Math.ceil(windows.size() / (double) X_TICKS));
        for (int i = 0; i < windows.size(); i += every) {
            String x = Markup.px(x(windows.get(i)));
            page.empty("line", "x1", x, "y1", Markup.px(base), "x2", x, "y2", Markup.px(base + 4), "stroke", "#888888",
                "stroke-width", "1");
            page.element("text", Markup.minute(windows.get(i)).substring(5), "x", x, "y", Markup.px(base + 16),
                "text-anchor", "middle");
        }
        page.element("text", "window start (UTC)", "x", Markup.px(LEFT + (WIDTH - LEFT - RIGHT) / 2), "y",
            Markup.px(base + 36), "text-anchor", "middle");
    }

    private void line(Markup page, Series s, String colour, boolean dashed) {
        StringBuilder points = new StringBuilder(s.counts().length * 12);
        for (int i = 0; i < windows.size(); i++) {
            points.append(i == 0 ? "" : " ").append(Markup.px(x(windows.get(i)))).append(',')
                .append(Markup.px(y(s.counts()[i])));
        }
        page.open("polyline", "class", "series", "data-series", s.name(), "points", points.toString(), "fill", "none",
            "stroke", colour, "stroke-width", dashed ? "2.5" : "1.6", "stroke-dasharray", dashed ? "6 3" : "none");
        page.element("title", s.name()).close("polyline");
        if (windows.size() <= MARKED_POINTS) {
            for (int i = 0; i < windows.size(); i++) {
                page.open("circle", "cx", Markup.px(x(windows.get(i))), "cy", Markup.px(y(s.counts()[i])), "r", "2.5",
                    "fill", colour);
                page.element("title", s.name() + ", " + Markup.minute(windows.get(i)) + ": " + Markup.count(s.counts()[i]))
                    .close("circle");
            }
        }
    }
}
