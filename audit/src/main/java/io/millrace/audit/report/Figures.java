package io.millrace.audit.report;

/**
 * Numbers and columns written out by hand for the report's table and page: a report of a day of 100
 * topics has tens of thousands of rows, and {@code String.format} (a parse of the pattern and a new
 * {@code DecimalFormat} per call) was most of its time. The output is what {@code %,d}, {@code %.2f} and
 * {@code %-Ns}/{@code %Ns} give in {@code Locale.ROOT}.
 */
final class Figures {

    private Figures() {
    }

    /** {@code n} with a comma between every three digits: 12,345. */
    static String grouped(long n) {
        String digits = Long.toString(n);
        int sign = n < 0 ? 1 : 0;
        int length = digits.length() - sign;
        if (length <= 3) {
            return digits;
        }
        StringBuilder b = new StringBuilder(digits.length() + length / 3);
        b.append(digits, 0, sign);
        int first = length % 3 == 0 ? 3 : length % 3;
        b.append(digits, sign, sign + first);
        for (int i = sign + first; i < digits.length(); i += 3) {
            b.append(',').append(digits, i, i + 3);
        }
        return b.toString();
    }

    /** {@code v} with two decimals, rounded half up: 97.00, 99.95. */
    static String twoDecimals(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.toString(v);
        }
        long hundredths = Math.round(Math.abs(v) * 100);
        long fraction = hundredths % 100;
        return (v < 0 && hundredths != 0 ? "-" : "") + hundredths / 100 + (fraction < 10 ? ".0" : ".") + fraction;
    }

    /** Appends {@code s} and then spaces up to {@code width}: {@code %-Ns}. */
    static StringBuilder left(StringBuilder b, String s, int width) {
        b.append(s);
        return spaces(b, width - s.length());
    }

    /** Appends spaces and then {@code s}, {@code width} in all: {@code %Ns}. */
    static StringBuilder right(StringBuilder b, String s, int width) {
        return spaces(b, width - s.length()).append(s);
    }

    private static StringBuilder spaces(StringBuilder b, int n) {
        for (int i = 0; i < n; i++) {
            b.append(' ');
        }
        return b;
    }
}
