package io.millrace.hadoop.load;

import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditSource;
import io.millrace.audit.LostRangeReport;
import io.millrace.audit.WindowDelta;
import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.StateDir;
import io.millrace.hadoop.state.WindowCount;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * The audit records of committed loads, each under an id made only from what the load committed, so that
 * counts published again after a crash are the same records again, which the report counts once:
 * <ul>
 *   <li>a window's counts: {@code <state dir>/<sequence>/<topic>/<window start>};</li>
 *   <li>a range retention deleted before the load could read it:
 *       {@code <state dir>/<sequence>/<topic>/lost/<partition>/<first offset>}. Within a load the ranges of a
 *       partition do not overlap, so their first offsets differ; and as topic names hold no '/', the two
 *       kinds of id never meet.</li>
 * </ul>
 * Immutable.
 */
final class LoadAuditRecords {

    private final Map<String, WindowDelta> windows = new LinkedHashMap<>();
    private final Map<String, LostRangeReport> lost = new LinkedHashMap<>();

    /** The records of {@code loads}, committed in the state directory at {@code stateRoot}. */
    LoadAuditRecords(Path stateRoot, List<Manifest> loads) {
        for (Manifest load : loads) {
            String prefix = stateRoot + "/" + StateDir.name(load.sequence()) + "/";
            for (WindowCount w : load.auditWindows()) {
                windows.put(prefix + w.topic() + "/" + w.windowStart(), new WindowDelta(w.topic(), w.windowStart(),
                    w.windowEnd(), w.count(), w.bytes(), w.noTimeCount(), w.malformedCount(), 0, w.latencyP50Ms(),
                    w.latencyP99Ms(), w.latencyMaxMs()));
            }
            for (LostRange range : load.lost()) {
                // the manifest's ranges end exclusive, the audit's inclusive
                lost.put(prefix + range.topic() + "/lost/" + range.partition() + "/" + range.from(),
                    new LostRangeReport(range.topic(), range.partition(), range.from(), range.to() - 1));
            }
        }
    }

    /** The number of records of one committed load: what its audit mark says was published. */
    static int count(Manifest load) {
        return load.auditWindows().size() + load.lost().size();
    }

    int size() {
        return windows.size() + lost.size();
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Hands every record to {@code publisher}, under {@code source}, for its next round. */
    void handTo(AuditPublisher publisher, AuditSource source) {
        publisher.publishWithIds(source, windows);
        publisher.lostRangesWithIds(source, lost);
    }
}
