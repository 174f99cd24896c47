package io.millrace.audit;

import org.slf4j.Logger;

/**
 * How the publisher reports a failure that every round meets again, such as an audit topic that cannot
 * be reached for an hour: the first failure of such a run at WARN (or INFO where it is expected for a while), the ones after it at DEBUG with a WARN
 * reminder every {@code reminderMs}, and the first round that gets through again at INFO. The log then
 * says when it began, that it lasts and when it ended, in a few lines rather than one a round.
 * Thread-safe.
 */
final class RepeatedFailureLog {

    /** How a failure was reported. */
    enum Report { FIRST, AGAIN, REMINDER }

    private final Logger log;
    private final long reminderMs;
    private boolean failing;   // guarded by this
    private long sinceMs;   // guarded by this
    private long lastWarnMs;   // guarded by this
    private long failures;   // guarded by this

    RepeatedFailureLog(Logger log, long reminderMs) {
        this.log = log;
        this.reminderMs = reminderMs;
    }

    /** Reports a failed round at {@code nowMs}. */
    synchronized Report failed(long nowMs, String message) {
        return failed(nowMs, message, false);
    }

    /**
     * Reports a failed round at {@code nowMs}; with {@code expectedAtFirst} the first failure of a run is
     * logged at INFO, being what a tier meets for a while after it starts (the reminders stay WARNs).
     */
    synchronized Report failed(long nowMs, String message, boolean expectedAtFirst) {
        failures++;
        if (!failing) {
            failing = true;
            sinceMs = nowMs;
            lastWarnMs = nowMs;
            if (expectedAtFirst) {
                log.info(message);
            } else {
                log.warn(message);
            }
            return Report.FIRST;
        }
        if (nowMs - lastWarnMs >= reminderMs) {
            lastWarnMs = nowMs;
            log.warn("{} (failing for {} s, {} times; repeats are logged at DEBUG)", message, (nowMs - sinceMs) / 1000,
                failures);
            return Report.REMINDER;
        }
        log.debug(message);
        return Report.AGAIN;
    }

    /** Reports a round that got through at {@code nowMs}; whether it ended a run of failures. */
    synchronized boolean succeeded(long nowMs) {
        if (!failing) {
            return false;
        }
        log.info("Audit records are sent again, {} ms after the first of {} failed attempts", nowMs - sinceMs, failures);
        failing = false;
        failures = 0;
        return true;
    }
}
