package io.millrace.examples.generator;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as an operator types them: a whole number with a unit ({@code 500ms}, {@code 90s}, {@code 10m},
 * {@code 3h}, {@code 1d}), {@code 0}, or ISO-8601 ({@code PT3H}, {@code P1D}).
 */
public final class Durations {

    private static final Pattern AMOUNT_AND_UNIT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private Durations() {
    }

    /**
     * The duration {@code text} spells.
     *
     * @throws IllegalArgumentException when it spells none, or a negative one
     */
    public static Duration parse(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        if (value.equals("0")) {
            return Duration.ZERO;
        }
        if (value.startsWith("p")) {
            return iso(text);
        }
        Matcher matcher = AMOUNT_AND_UNIT.matcher(value);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("Not a duration: '" + text + "' (e.g. 90s, 10m, 3h, 1d or PT3H)");
        }
        long amount;
        try {
            amount = Long.parseLong(matcher.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Not a duration: '" + text + "' is too long");
        }
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    private static Duration iso(String text) {
        Duration duration;
        try {
            duration = Duration.parse(text.trim().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("Not a duration: '" + text + "' (e.g. 90s, 10m, 3h, 1d or PT3H)");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("A duration cannot be negative: " + text);
        }
        return duration;
    }
}
