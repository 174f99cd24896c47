package io.millrace.hadoop.input;

import io.millrace.hadoop.state.CommittedOffset;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds the topics deleted and created again since their offsets were committed: a committed offset
 * labelled with one topic id while the cluster now gives the name another. Without this check a new
 * incarnation that grows past the old committed offset would have its first messages skipped silently.
 * Offsets without an id (committed before ids were kept, or from a broker that gives none) and topics
 * the cluster gives no id cannot be checked and are taken as unchanged.
 */
public final class RecreatedTopics {

    private RecreatedTopics() {
    }

    /**
     * Topic → "old id → new id" for every planned topic whose id changed.
     *
     * @param committed the offsets of the last committed load
     * @param currentIds the planned topics' ids now
     */
    public static Map<String, String> find(Collection<CommittedOffset> committed, Map<String, String> currentIds) {
        Map<String, String> changed = new TreeMap<>();
        for (CommittedOffset offset : committed) {
            String now = currentIds.get(offset.topic());
            if (offset.topicId() != null && now != null && !offset.topicId().equals(now)) {
                changed.put(offset.topic(), offset.topicId() + " -> " + now);
            }
        }
        return changed;
    }
}
