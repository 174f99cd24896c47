package io.millrace.mirror;

import io.millrace.audit.AuditCounter;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditSource;
import io.millrace.audit.LostRangeReport;
import io.millrace.common.utils.Time;

/**
 * One mirror stream's audit counts for one live cluster: what it read (tier {@code live}) and what the
 * offline cluster acknowledged (tier {@code offline}), both under the live cluster's name so that the
 * report sets them beside that data centre's producers. The counts are staged here and handed to the
 * publisher only after the live offsets they cover were committed: a mirror killed before its commit
 * takes its uncommitted counts with it, and the copy it makes again after the restart is counted once,
 * although the records themselves arrive twice. Lost ranges go out as they are found (tier {@code live}:
 * lost in the live cluster). Mirror thread, except {@link #acknowledged}, which is thread-safe.
 */
final class MirrorAudit {

    static final String LIVE_TIER = "live";
    static final String OFFLINE_TIER = "offline";

    private final AuditPublisher publisher;
    private final AuditSource live;
    private final AuditSource offline;
    private final AuditCounter read;
    private final AuditCounter acknowledged;

    MirrorAudit(AuditPublisher publisher, String cluster, long windowMs) {
        this.publisher = publisher;
        this.live = publisher.source(LIVE_TIER, cluster);
        this.offline = publisher.source(OFFLINE_TIER, cluster);
        this.read = new AuditCounter(windowMs, 0, Time.SYSTEM);
        this.acknowledged = new AuditCounter(windowMs, 0, Time.SYSTEM);
    }

    void read(String topic, long timestamp, long bytes) {
        count(read, topic, timestamp, bytes);
    }

    void acknowledged(String topic, long timestamp, long bytes) {
        count(acknowledged, topic, timestamp, bytes);
    }

    private static void count(AuditCounter counter, String topic, long timestamp, long bytes) {
        if (timestamp >= 0) {
            counter.count(topic, timestamp, bytes);
        } else {
            counter.countWithoutTime(topic, bytes);
        }
    }

    /** The live offsets of everything counted so far are committed: hand the counts to the publisher. */
    void committed() {
        publisher.publish(live, read.drainDue(true));
        publisher.publish(offline, acknowledged.drainDue(true));
    }

    void lost(MirrorCounters.LostRange range) {
        publisher.lostRange(live, new LostRangeReport(range.topic(), range.partition(), range.from(), range.to() - 1));
    }
}
