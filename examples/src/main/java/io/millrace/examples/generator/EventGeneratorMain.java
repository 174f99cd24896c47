package io.millrace.examples.generator;

import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.MillraceException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/millrace event-generator}: sends realistic front-end events as simulated hosts, printing progress
 * every two seconds and a summary of what was acknowledged. Exits 0 when every event sent was acknowledged,
 * 1 when some were not (or the cluster could not be reached), 2 on a usage error. Ctrl-C ends the run early:
 * what was sent is still waited for, counted and summed up before the JVM stops.
 */
public final class EventGeneratorMain {

    static final int FAILED = 1;
    static final int USAGE_ERROR = 2;
    /** How long Ctrl-C waits for the producers to drain and the summary to be printed. */
    private static final long STOP_WAIT_SECONDS = 60;

    private EventGeneratorMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, true));
    }

    /** What main does, returning the exit status; {@code onCtrlC}: whether the JVM's shutdown stops the run. */
    static int run(String[] args, PrintStream out, PrintStream err, boolean onCtrlC) {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            out.println(GeneratorCommandLine.USAGE);
            return 0;
        }
        GeneratorOptions options;
        try {
            options = GeneratorCommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            return usageError(err, e.getMessage());
        }
        EventGenerator generator = new EventGenerator(options);
        CountDownLatch summedUp = new CountDownLatch(1);
        Thread hook = new Thread(() -> stopAndWait(generator, summedUp), "millrace-event-generator-shutdown");
        if (onCtrlC) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return generator.run(out).exitStatus();
        } catch (ConfigException e) {   // a --producer-property the producer cannot take
            return usageError(err, e.getMessage());
        } catch (MillraceException e) {
            err.println("millrace event-generator: " + e.getMessage());
            return FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return FAILED;
        } finally {
            summedUp.countDown();
        }
    }

    private static int usageError(PrintStream err, String message) {
        err.println("millrace event-generator: " + message);
        err.println(GeneratorCommandLine.USAGE);
        return USAGE_ERROR;
    }

    // runs in a shutdown hook: the JVM stops when it returns, so wait for the run to sum up first
    private static void stopAndWait(EventGenerator generator, CountDownLatch summedUp) {
        generator.stop();
        try {
            summedUp.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
