package io.millrace.bench.compare.report;

import java.util.List;
import java.util.Locale;

/**
 * An inline SVG document under construction, with the few shapes the charts draw and the parts
 * they share: the value axis with its grid, and the legend.
 */
final class Svg {

    static final int FONT = 12;
    /** Rough width of a character at {@link #FONT}, to lay out legends without measuring text. */
    static final double CHAR_WIDTH = 7.4;
    static final String GRID = "#e3e3e3";
    static final String INK = "#333333";

    private final StringBuilder b = new StringBuilder();
    private final int width;
    private final int height;

    Svg(int width, int height, String title) {
        this.width = width;
        this.height = height;
        b.append("<svg class=\"chart\" role=\"img\" viewBox=\"0 0 ")
            .append(width).append(' ').append(height).append("\" style=\"max-width:").append(width)
            .append("px\" font-family=\"sans-serif\" font-size=\"").append(FONT).append("\">");
        b.append("<title>").append(Xml.escape(title)).append("</title>");
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    Svg line(double x1, double y1, double x2, double y2, String stroke, double strokeWidth) {
        b.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
            .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
            .append(n(strokeWidth)).append("\"/>");
        return this;
    }

    Svg rect(double x, double y, double w, double h, String fill, String tooltip) {
        b.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
            .append("\" height=\"").append(n(h)).append("\" fill=\"").append(fill).append("\">");
        if (tooltip != null) {
            b.append("<title>").append(Xml.escape(tooltip)).append("</title>");
        }
        b.append("</rect>");
        return this;
    }

    /** A text; {@code anchor} is start, middle or end. */
    Svg text(double x, double y, String text, String anchor, String extra) {
        b.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" text-anchor=\"").append(anchor)
            .append("\" fill=\"").append(INK).append('"');
        if (extra != null) {
            b.append(' ').append(extra);
        }
        b.append('>').append(Xml.escape(text)).append("</text>");
        return this;
    }

    /** A text turned a quarter left, centred on (x, y): the y axis's label. */
    Svg verticalText(double x, double y, String text) {
        return text(x, y, text, "middle", "transform=\"rotate(-90 " + n(x) + ' ' + n(y) + ")\"");
    }

    Svg polyline(List<double[]> points, String stroke, String tooltip) {
        b.append("<polyline fill=\"none\" stroke=\"").append(stroke)
            .append("\" stroke-width=\"1.6\" stroke-linejoin=\"round\" points=\"");
        for (double[] p : points) {
            b.append(n(p[0])).append(',').append(n(p[1])).append(' ');
        }
        b.append("\">");
        if (tooltip != null) {
            b.append("<title>").append(Xml.escape(tooltip)).append("</title>");
        }
        b.append("</polyline>");
        return this;
    }

    /**
     * The value axis on the left of the plot area from {@code top} to {@code bottom}: a grid line
     * and a label per tick, and the axis's name turned along it.
     */
    Svg valueAxis(Axis axis, double left, double right, double top, double bottom, String label) {
        for (double tick : axis.ticks()) {
            double y = bottom - axis.fraction(tick) * (bottom - top);
            line(left, y, right, y, GRID, 1);
            text(left - 6, y + 4, Numbers.compact(tick), "end", null);
        }
        line(left, top, left, bottom, INK, 1);
        line(left, bottom, right, bottom, INK, 1);
        verticalText(14, (top + bottom) / 2, label + (axis.isLog() ? " (log scale)" : ""));
        return this;
    }

    /** Swatches and labels in columns of equal width from {@code left} to {@code right}; returns the y below. */
    double legend(List<String> labels, List<String> colours, double left, double right, double top) {
        double column = legendColumnWidth(labels);
        int columns = legendColumns(labels, right - left);
        for (int i = 0; i < labels.size(); i++) {
            double x = left + (i % columns) * column;
            double y = top + (i / columns) * 18;
            rect(x, y - 10, 12, 12, colours.get(i), null);
            text(x + 16, y, labels.get(i), "start", null);
        }
        return top + legendRows(labels, right - left) * 18;
    }

    /** Rows the legend will take, to size the picture before drawing it. */
    static int legendRows(List<String> labels, double width) {
        int columns = legendColumns(labels, width);
        return (labels.size() + columns - 1) / columns;
    }

    private static int legendColumns(List<String> labels, double width) {
        return (int) Math.max(1, Math.floor(width / legendColumnWidth(labels)));
    }

    private static double legendColumnWidth(List<String> labels) {
        int longest = labels.stream().mapToInt(String::length).max().orElse(0);
        return 16 + longest * CHAR_WIDTH + 16;
    }

    String end() {
        return b + "</svg>";
    }

    private static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
