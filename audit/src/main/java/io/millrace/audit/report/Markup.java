package io.millrace.audit.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * A page of HTML with inline SVG under construction, written so that it is well-formed XML too: every
 * element closed (only SVG shapes and HTML's void elements are written self-closed), every attribute
 * quoted, all text escaped, and characters that XML does not allow replaced. Attributes are given as
 * name, value pairs. Not thread-safe.
 */
final class Markup {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
        .withZone(ZoneOffset.UTC);

    private final StringBuilder out;

    Markup(int capacity) {
        out = new StringBuilder(capacity);
    }

    /** {@code <tag a="v" ...>}. */
    Markup open(String tag, String... attributes) {
        out.append('<').append(tag);
        attributes(attributes);
        out.append('>');
        return this;
    }

    Markup close(String tag) {
        out.append("</").append(tag).append('>');
        return this;
    }

    /** {@code <tag a="v" .../>}: SVG shapes and HTML's void elements only. */
    Markup empty(String tag, String... attributes) {
        out.append('<').append(tag);
        attributes(attributes);
        out.append("/>");
        return this;
    }

    /** {@code <tag a="v" ...>text</tag>}. */
    Markup element(String tag, String text, String... attributes) {
        return open(tag, attributes).text(text).close(tag);
    }

    Markup text(String text) {
        escape(text, out);
        return this;
    }

    /** Markup made elsewhere, or a literal known to need no escaping. */
    Markup raw(CharSequence markup) {
        out.append(markup);
        return this;
    }

    private void attributes(String[] attributes) {
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("Attributes come in name, value pairs");
        }
        for (int i = 0; i < attributes.length; i += 2) {
            out.append(' ').append(attributes[i]).append("=\"");
            escape(attributes[i + 1], out);
            out.append('"');
        }
    }

    @Override
    public String toString() {
        return out.toString();
    }

    static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        escape(text, b);
        return b.toString();
    }

    /** Appends {@code text} escaped for element content and attribute values alike. */
    static void escape(String text, StringBuilder b) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(allowedInXml(c) ? c : '\uFFFD');
            }
        }
    }

    /** XML 1.0 allows tab, newline, carriage return and everything from space on, but for U+FFFE and U+FFFF. */
    private static boolean allowedInXml(char c) {
        return c >= 0x20 ? c != '\uFFFE' && c != '\uFFFF' : c == '\t' || c == '\n' || c == '\r';
    }

    /** A number with thousands separators: 12,345. */
    static String count(long n) {
        return Figures.grouped(n);
    }

    /** A coordinate or length with at most one decimal. */
    static String px(double v) {
        long tenths = Math.round(v * 10);
        return tenths % 10 == 0 ? Long.toString(tenths / 10) : Double.toString(tenths / 10.0);
    }

    /** A time to the minute, UTC: 2027-01-15 08:10. */
    static String minute(long epochMs) {
        return MINUTE.format(Instant.ofEpochMilli(epochMs));
    }

    /** A time as ISO-8601, UTC, for {@code datetime} attributes. */
    static String iso(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }
}
