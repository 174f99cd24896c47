package io.millrace.bench.compare.report;

import io.millrace.bench.profile.CallTree;
import io.millrace.bench.profile.PerfScriptSamples;
import java.util.Locale;

/**
 * Draws a {@link CallTree} as a flame graph in one self-contained SVG: the root at the bottom,
 * each frame above its caller, widths proportional to samples. Hovering a frame shows its full
 * name, samples and share of the total (an SVG {@code <title>}). Colours say where the code comes
 * from: Millrace green, Kafka blue, Netty purple, the JDK orange, the kernel's grey, anything else red; thread rows
 * grey. Frames narrower than a third of a pixel are left out, with everything above them.
 */
public final class FlameGraphSvg {

    static final int WIDTH = 1200;
    static final int FRAME_HEIGHT = 16;
    static final int MARGIN = 10;
    static final int HEADER = 44;
    static final double MIN_FRAME_WIDTH = 0.33;
    static final double CHAR_WIDTH = 6.6;

    private final CallTree tree;
    private final String title;
    private final double pixelsPerSample;
    private final StringBuilder svg = new StringBuilder(64 * 1024);
    private int height;

    private FlameGraphSvg(CallTree tree, String title) {
        this.tree = tree;
        this.title = title;
        this.pixelsPerSample = tree.totalSamples() == 0 ? 0 : (WIDTH - 2.0 * MARGIN) / tree.totalSamples();
    }

    /** The SVG document for {@code tree}, headed by {@code title}. */
    public static String render(CallTree tree, String title) {
        return new FlameGraphSvg(tree, title).render();
    }

    private String render() {
        int depth = drawnDepth(tree.root());
        height = HEADER + depth * FRAME_HEIGHT + MARGIN;
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            .append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
            .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
            .append("\" font-family=\"Verdana, sans-serif\" font-size=\"11\">\n")
            .append("<rect width=\"100%\" height=\"100%\" fill=\"#fdfdf8\"/>\n");
        text(MARGIN, 18, 15, title);
        text(MARGIN, 36, 11, String.format(Locale.ROOT, "%,d samples. Millrace green, Kafka blue, Netty purple, JDK orange, "
            + "kernel [k] grey, other red; hover a frame for its name and share", tree.totalSamples()));
        if (tree.totalSamples() > 0) {
            draw(tree.root(), MARGIN, 0);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private int drawnDepth(CallTree.Node node) {
        int deepest = 0;
        for (CallTree.Node child : node.children()) {
            if (child.samples() * pixelsPerSample >= MIN_FRAME_WIDTH) {
                deepest = Math.max(deepest, drawnDepth(child));
            }
        }
        return deepest + 1;
    }

    private void draw(CallTree.Node node, double x, int level) {
        double width = node.samples() * pixelsPerSample;
        double y = height - MARGIN - (level + 1) * FRAME_HEIGHT;
        String name = level == 0 ? "all" : node.frame();
        double share = 100.0 * node.samples() / tree.totalSamples();
        svg.append("<g><title>").append(escape(name)).append(String.format(Locale.ROOT, " (%,d samples, %.2f%%)",
            node.samples(), share)).append("</title>");
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
            x, y, width, FRAME_HEIGHT - 1, colour(name, level)));
        String label = fit(level == 0 ? title : shortName(name), width);
        if (!label.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_HEIGHT - 4.5))
                .append(escape(label)).append("</text>");
        }
        svg.append("</g>\n");
        double childX = x;
        for (CallTree.Node child : node.children()) {
            double childWidth = child.samples() * pixelsPerSample;
            if (childWidth >= MIN_FRAME_WIDTH) {
                draw(child, childX, level + 1);
            }
            childX += childWidth;
        }
    }

    private void text(double x, double y, int size, String s) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\">", x, y, size))
            .append(escape(s)).append("</text>\n");
    }

    /** {@code io.millrace.log.LogSegment.append} becomes {@code LogSegment.append}. */
    static String shortName(String frame) {
        int method = frame.lastIndexOf('.');
        if (method <= 0) {
            return frame;
        }
        int type = frame.lastIndexOf('.', method - 1);
        return frame.substring(type + 1);
    }

    /** As much of {@code label} as fits in {@code width} pixels, ".." marking a cut; empty if hardly anything fits. */
    static String fit(String label, double width) {
        int chars = (int) ((width - 6) / CHAR_WIDTH);
        if (chars >= label.length()) {
            return label;
        }
        return chars < 4 ? "" : label.substring(0, chars - 2) + "..";
    }

    static String colour(String frame, int level) {
        if (level <= 1) {
            return "#d8d8d8";
        }
        int shade = Math.floorMod(frame.hashCode(), 40);
        if (frame.startsWith("io.millrace.")) {
            return hsl(120, 45, 58 + shade / 4);
        }
        if (frame.startsWith("org.apache.kafka.") || frame.startsWith("kafka.") || frame.startsWith("scala.")) {
            return hsl(210, 60, 62 + shade / 4);
        }
        if (frame.startsWith("io.netty.")) {
            return hsl(275, 40, 66 + shade / 4);
        }
        if (frame.startsWith("java.") || frame.startsWith("javax.") || frame.startsWith("jdk.") || frame.startsWith("sun.")) {
            return hsl(32, 85, 58 + shade / 4);
        }
        if (frame.startsWith(PerfScriptSamples.KERNEL_PREFIX)) {
            return hsl(45, 12, 62 + shade / 4);
        }
        return hsl(4, 70, 62 + shade / 4);
    }

    private static String hsl(int hue, int saturation, int lightness) {
        return "hsl(" + hue + "," + saturation + "%," + lightness + "%)";
    }

    private static String escape(String s) {
        return Xml.escape(s);
    }
}
