package io.millrace.bench.compare;

import java.time.Duration;

/**
 * CPU time a process used, user and system together, as the OS counts it (on Linux from
 * {@code /proc/<pid>/stat}, in 10 ms ticks). With two processes sharing two vCPUs, throughput
 * alone cannot say whether the broker was the limit; its CPU time per scenario can.
 */
final class CpuTime {

    private CpuTime() {
    }

    /** Milliseconds of CPU {@code process} used so far, or NaN where the OS does not tell. */
    static double millis(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).map(n -> n / 1e6).orElse(Double.NaN);
    }

    /** This JVM's: the clients' and the harness's. */
    static double ofThisJvm() {
        return millis(ProcessHandle.current());
    }
}
