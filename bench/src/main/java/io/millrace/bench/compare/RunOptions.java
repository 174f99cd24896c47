package io.millrace.bench.compare;

/**
 * The command line of the comparisons that take {@code [--scale S] [--runs N] [--quick]}: how much data
 * (a multiple of each comparison's own default) and how many measured runs; {@code --quick} is a smoke
 * run at the comparison's quick scale and run count.
 */
record RunOptions(double scale, int runs) {

    /** The options in {@code args}; prints {@code usage} and exits with status 2 on anything else. */
    static RunOptions parse(String[] args, String usage, int defaultRuns, double quickScale, int quickRuns) {
        double scale = 1;
        int runs = defaultRuns;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> {
                    scale = quickScale;
                    runs = quickRuns;
                }
                case "--scale" -> scale = Double.parseDouble(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("Usage: " + usage);
                    System.exit(2);
                }
            }
        }
        return new RunOptions(scale, runs);
    }
}
