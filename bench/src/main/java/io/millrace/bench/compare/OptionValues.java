package io.millrace.bench.compare;

/** Reading the values of a benchmark command's options. */
public final class OptionValues {

    private OptionValues() {
    }

    /** The argument after {@code option}, at {@code i}. */
    public static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /** {@code n}, refused unless above zero. */
    public static <N extends Number> N positive(String option, N n) {
        if (n.doubleValue() <= 0) {
            throw new IllegalArgumentException(option + " must be positive, not " + n);
        }
        return n;
    }
}
