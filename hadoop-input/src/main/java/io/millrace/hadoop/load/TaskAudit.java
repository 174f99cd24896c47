package io.millrace.hadoop.load;

import io.millrace.audit.AuditCounter;
import io.millrace.audit.WindowDelta;
import io.millrace.common.utils.Time;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.state.WindowCount;
import java.util.List;
import java.util.Map;

/**
 * What one map task counts for the hadoop tier of the audit, per topic and audit window of event time: the
 * events it writes with their key and value bytes and their latency (the task's clock minus the event time),
 * events without a usable time and undecodable messages, both in the window of the task's clock, never
 * dropped from the books. The counts go into the task report, so only those of the attempt that commits
 * reach the manifest; nothing is published from a task. Not thread-safe.
 */
final class TaskAudit {

    private final AuditCounter counter;

    TaskAudit(long windowMs, Time time) {
        this.counter = new AuditCounter(windowMs, 0, time);
    }

    /** The audit of a task with the job's settings, or null when auditing is off. */
    static TaskAudit of(LoadConfig config) {
        return config.auditEnabled() ? new TaskAudit(config.auditConfig().windowMs(), Time.SYSTEM) : null;
    }

    // hot path: once per event
    void written(String topic, long eventTimeMs, byte[] key, byte[] value) {
        long bytes = (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        if (eventTimeMs >= 0) {
            counter.count(topic, eventTimeMs, bytes);
        } else {
            counter.countWithoutTime(topic, bytes);   // no header time and no message timestamp
        }
    }

    /** The messages per topic that could not be decoded (they went to the error output). */
    void undecodable(Map<String, Long> byTopic) {
        byTopic.forEach((topic, messages) -> {
            for (long i = 0; i < messages; i++) {
                counter.countMalformed(topic);
            }
        });
    }

    /** Everything counted, per topic and window. */
    List<WindowCount> windows() {
        return counter.drainDue(true).stream().map(TaskAudit::windowCount).toList();
    }

    private static WindowCount windowCount(WindowDelta d) {
        return new WindowCount(d.topic(), d.windowStart(), d.windowEnd(), d.count(), d.bytes(), d.noTimeCount(),
            d.malformedCount(), d.latencyP50Ms(), d.latencyP99Ms(), d.latencyMaxMs());
    }
}
