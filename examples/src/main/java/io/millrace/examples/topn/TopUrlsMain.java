package io.millrace.examples.topn;

import io.millrace.common.errors.MillraceException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code bin/millrace example top-urls}: runs the counting instances and the total ranker until Ctrl-C, printing
 * the total ranking whenever its URLs or counts change. Exits 2 on a usage error and 1 when the cluster cannot be
 * reached; Ctrl-C leaves the groups and ends it.
 */
public final class TopUrlsMain {

    static final int FAILED = 1;
    static final int USAGE_ERROR = 2;
    /** How long Ctrl-C waits for the instances and the total ranker to leave their groups. */
    private static final long STOP_WAIT_SECONDS = 30;

    private TopUrlsMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        // Ctrl-C: the JVM ends when the hook returns, so the hook waits for the groups to be left
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.countDown();
            awaitQuietly(stopped);
        }, "millrace-top-urls-shutdown"));
        int status = run(args, System.out, System.err, stop);
        stopped.countDown();
        System.exit(status);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What main does, returning the exit status: ranks until {@code stop} is counted down (by Ctrl-C). */
    static int run(String[] args, PrintStream out, PrintStream err, CountDownLatch stop) throws InterruptedException {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            out.println(TopUrlsCommandLine.USAGE);
            return 0;
        }
        TopUrlsOptions options;
        try {
            options = TopUrlsCommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("millrace example top-urls: " + e.getMessage());
            err.println(TopUrlsCommandLine.USAGE);
            return USAGE_ERROR;
        }
        out.printf("Top %d URLs of %s over %s of event time, every %s (lateness %s), %d counting instances, from the "
            + "%s offsets; totals to %s. Ctrl-C stops.%n", options.topN(), options.topic(), options.window(),
            options.slide(), options.lateness(), options.instances(), options.fromBeginning() ? "earliest" : "latest",
            options.totalsTopic());
        TopUrls top;
        try {
            top = TopUrls.start(options, printChanges(options, out));
        } catch (MillraceException e) {
            err.println("millrace example top-urls: " + e.getMessage());
            return FAILED;
        }
        try {
            stop.await();
        } finally {
            top.close();
        }
        out.printf("Stopped. Each counting instance read %s page views; %d came after a window they belong to had "
            + "been ranked (lateness %s) and are missing from it%n", top.viewsRead(), top.lateViews(), options.lateness());
        return 0;
    }

    /** Prints a total when it ranks other URLs or counts than the one printed before it. */
    private static Consumer<UrlRanking> printChanges(TopUrlsOptions options, PrintStream out) {
        UrlRanking[] printed = new UrlRanking[1];   // the total ranker's one thread calls this
        return total -> {
            if (RankingMerger.changed(printed[0], total)) {
                out.print(RankingDisplay.format(total, options.window()));
                out.flush();
                printed[0] = total;
            }
        };
    }
}
