package io.millrace.audit.report;

import io.millrace.audit.report.Reconciliation.Row;
import io.millrace.audit.report.Reconciliation.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The completeness heat map: per downstream tier (tier and cluster) a heading and an inline SVG with a row
 * per topic and a column per window, each cell coloured by the share of the producers' count the tier
 * counted (pending windows in a colour of their own). A window in which a tier had no traffic has no cell.
 * Every cell carries its numbers: a tooltip for people, and {@code data-window} (start, epoch ms),
 * {@code data-expected}, {@code data-counted}, {@code data-missing} and {@code data-status} for machines;
 * its row ({@code g class="heat-row"}) carries {@code data-topic}, {@code data-tier} and {@code data-cluster}.
 * The columns are the windows of the whole report, the same in every tier's map.
 */
final class HeatMap {

    static final String COMPLETE = "#1a9850";
    static final String PENDING = "#8fa8c8";
    static final String OVER = "#7b3294";
    private static final String NO_TRAFFIC = "#f0f0f0";
    /** Incomplete cells, from the smallest shortfall to the largest. */
    private static final List<Band> SHORT = List.of(
        new Band(99.9, "#d9ef8b", "99.9% to under 100%"),
        new Band(99, "#fee08b", "99% to under 99.9%"),
        new Band(95, "#fdae61", "95% to under 99%"),
        new Band(90, "#f46d43", "90% to under 95%"),
        new Band(Double.NEGATIVE_INFINITY, "#d73027", "under 90%"));

    /** The colour of incomplete cells of at least {@code lowest} percent (and under the band before). */
    private record Band(double lowest, String colour, String label) {
    }

    private static final int ROW_HEIGHT = 14;
    private static final int AXIS_HEIGHT = 24;
    private static final double CHAR_WIDTH = 6.6;
    private static final int LABEL_SPACING = 96;
    /**
     * The steps, in columns, a time label may be put at: with 10-minute windows every 10 minutes, 20, 30,
     * 40, an hour, 2, 3, 4, 6, 12 hours or a day.
     */
    private static final int[] LABEL_STEPS = {1, 2, 3, 4, 6, 12, 18, 24, 36, 72, 144};

    private final List<Long> windows;
    /** The windows' starts as the tooltips show them: 01-15 08:10. */
    private final String[] windowLabels;
    /** "tier / cluster" -> topic -> window start -> row. */
    private final Map<String, Map<String, Map<Long, Row>>> groups = new TreeMap<>();
    private final double labelWidth;
    private final int cellWidth;
    private final String cellWidthText;
    private final String cellHeightText = Integer.toString(ROW_HEIGHT - 1);

    private HeatMap(List<Row> rows) {
        TreeSet<Long> starts = new TreeSet<>();
        int longestTopic = 8;
        for (Row row : rows) {
            starts.add(row.windowStart());
            groups.computeIfAbsent(group(row), g -> new TreeMap<>()).computeIfAbsent(row.topic(), t -> new TreeMap<>())
                .put(row.windowStart(), row);
            longestTopic = Math.max(longestTopic, row.topic().length());
        }
        windows = new ArrayList<>(starts);
        windowLabels = windows.stream().map(w -> Markup.minute(w).substring(5)).toArray(String[]::new);
        labelWidth = Math.min(360, longestTopic * CHAR_WIDTH + 16);
        cellWidth = Math.max(6, Math.min(36, 960 / Math.max(1, windows.size())));
        cellWidthText = Integer.toString(cellWidth - 1);
    }

    /** The heat maps of {@code rows}, one per downstream tier, appended to {@code page}. */
    static void render(List<Row> rows, Markup page) {
        HeatMap map = new HeatMap(rows);
        map.groups.forEach((group, topics) -> {
            page.element("h3", group);
            page.open("div", "class", "scroll");
            map.draw(page, group, topics);
            page.close("div");
        });
    }

    /** How a downstream tier is named on the page: "tier / cluster". */
    static String group(Row row) {
        return row.tier() + " / " + row.cluster();
    }

    /** The fill of a cell: by status, and for an incomplete one by how much is missing. */
    static String colour(Row row) {
        return switch (row.status()) {
            case COMPLETE -> COMPLETE;
            case PENDING -> PENDING;
            case OVER -> OVER;
            case INCOMPLETE -> shortfallColour(percent(row));
        };
    }

    private static String shortfallColour(double percent) {
        int i = 0;
        while (percent < SHORT.get(i).lowest()) {
            i++;
        }
        return SHORT.get(i).colour();
    }

    /** What the tier counted as a percent of what was produced; 100 when nothing was produced or counted. */
    static double percent(Row row) {
        if (row.expected() == 0) {
            return row.counted() == 0 ? 100 : Double.POSITIVE_INFINITY;
        }
        return 100.0 * row.counted() / row.expected();
    }

    /** The legend's entries, label then colour, in the order they are shown. */
    static List<String[]> legend() {
        List<String[]> entries = new ArrayList<>();
        entries.add(new String[] {"complete", COMPLETE});
        SHORT.forEach(band -> entries.add(new String[] {band.label(), band.colour()}));
        entries.add(new String[] {"more than produced", OVER});
        entries.add(new String[] {"pending (inside the grace period)", PENDING});
        entries.add(new String[] {"no traffic", NO_TRAFFIC});
        return entries;
    }

    private void draw(Markup page, String group, Map<String, Map<Long, Row>> topics) {
        double width = labelWidth + windows.size() * cellWidth + 8;
        double height = AXIS_HEIGHT + topics.size() * ROW_HEIGHT + 2;
        page.open("svg", "class", "heat-map", "role", "img", "width", Markup.px(width), "height", Markup.px(height),
            "viewBox", "0 0 " + Markup.px(width) + " " + Markup.px(height), "font-family", "sans-serif", "font-size", "11");
        page.element("title", "Completeness at " + group + " per topic and window");
        timeAxis(page, height);
        double y = AXIS_HEIGHT;
        for (Map<Long, Row> cells : topics.values()) {
            row(page, cells, y);
            y += ROW_HEIGHT;
        }
        page.close("svg");
    }

    /** A label every {@value #LABEL_SPACING} pixels or more, with a faint line down the map. */
    private void timeAxis(Markup page, double height) {
        int every = labelStep(cellWidth);
        for (int i = 0; i < windows.size(); i += every) {
            String x = Markup.px(labelWidth + i * cellWidth);
            page.empty("line", "x1", x, "y1", Integer.toString(AXIS_HEIGHT - 8), "x2", x, "y2", Markup.px(height),
                "stroke", "#d0d0d0", "stroke-width", "1");
            page.element("text", windowLabels[i], "x", x, "y", Integer.toString(AXIS_HEIGHT - 11));
        }
    }

    /** How many columns apart the time labels are, for cells {@code cellWidth} pixels wide. */
    static int labelStep(int cellWidth) {
        int least = (int) Math.ceil((double) LABEL_SPACING / cellWidth);
        for (int step : LABEL_STEPS) {
            if (step >= least) {
                return step;
            }
        }
        return least;
    }

    private void row(Markup page, Map<Long, Row> cells, double y) {
        Row any = cells.values().iterator().next();
        page.open("g", "class", "heat-row", "data-topic", any.topic(), "data-tier", any.tier(), "data-cluster",
            any.cluster(), "transform", "translate(" + Markup.px(labelWidth) + "," + Markup.px(y) + ")");
        page.element("text", any.topic(), "x", "-6", "y", Integer.toString(ROW_HEIGHT - 4), "text-anchor", "end");
        page.empty("rect", "width", Integer.toString(windows.size() * cellWidth), "height", cellHeightText,
            "fill", NO_TRAFFIC);
        for (Row row : cells.values()) {
            cell(page, row);
        }
        page.close("g");
    }

    private void cell(Markup page, Row row) {
        int column = Collections.binarySearch(windows, row.windowStart());
        page.open("rect", "class", "cell", "x", Integer.toString(column * cellWidth), "width", cellWidthText,
            "height", cellHeightText, "fill", colour(row),
            "data-window", Long.toString(row.windowStart()), "data-expected", Long.toString(row.expected()),
            "data-counted", Long.toString(row.counted()), "data-missing", Long.toString(row.missing()),
            "data-status", row.status().name());
        page.element("title", tooltip(row, windowLabels[column])).close("rect");
    }

    /** The cell's numbers for people; the tier is the map's, the topic is on the row, the window on the axis. */
    static String tooltip(Row row, String window) {
        String numbers = row.topic() + " " + window + ": "
            + Markup.count(row.counted()) + " of " + Markup.count(row.expected());
        if (row.status() == Status.COMPLETE) {
            return numbers;
        }
        String share = row.expected() == 0 ? "none produced" : Figures.twoDecimals(percent(row)) + "%";
        return numbers + " (" + share + ") " + row.status();
    }
}
