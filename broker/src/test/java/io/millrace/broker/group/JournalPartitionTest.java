package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class JournalPartitionTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    private static OffsetRegistry.Committed at(long offset) {
        return new OffsetRegistry.Committed(offset, "");
    }

    @Test
    public void onlyCommitsBelowTheHighWatermarkAreTakenAndTheMarkStopsAtTheOldestLeftOut() {
        JournalPartition jp = new JournalPartition(0, 1, 0, 0);
        jp.appended("a", Map.of(TP, at(10)), 0, 0);
        jp.appended("b", Map.of(TP, at(20)), 1, 1);
        jp.appended("a", Map.of(TP, at(11)), 2, 2); // replaces a's first commit, which is unwritten too

        JournalPartition.Flush flush = jp.takeBelow(2);
        assertEquals(Map.of(new JournalPartition.Key("b", TP), new JournalPartition.Unwritten(at(20), 1, 1)), flush.entries());
        // a's latest commit is above the high watermark and may be lost with the leader: the mark
        // stays at a's oldest unwritten record, so a new leader finds its replicated commit again
        assertEquals(0, flush.mark());

        jp.written(flush);
        JournalPartition.Flush all = jp.takeBelow(3);
        assertEquals(3, all.mark());
        assertEquals(at(11), all.entries().get(new JournalPartition.Key("a", TP)).committed());
        assertEquals(1, all.entries().size());
    }

    @Test
    public void aTransactionsCommitsWaitForItsMarkerAndHoldTheMarkBelowTheirFirstRecord() {
        JournalPartition jp = new JournalPartition(0, 1, 0, 0);
        TopicPartition other = new TopicPartition("t", 1);
        jp.appended("a", Map.of(TP, at(5)), 0, 0);
        jp.transactionalAppended(7L, "a", Map.of(TP, at(10)), 1, 1);
        jp.transactionalAppended(7L, "a", Map.of(other, at(30)), 2, 2);
        jp.transactionalAppended(8L, "a", Map.of(other, at(99)), 3, 3);

        Map<TopicPartition, OffsetRegistry.Committed> seen = new HashMap<>();
        jp.overlay("a", seen, null);
        assertEquals("open transactions' commits are not committed offsets", Map.of(TP, at(5)), seen);
        assertTrue(jp.hasPendingCommit("a", TP));
        JournalPartition.Flush flush = jp.takeBelow(4);
        assertEquals("the mark stays below producer 7's first record", 1, flush.mark());
        assertEquals(1, flush.entries().size());
        jp.written(flush);

        jp.transactionEnded(7L, true);
        jp.transactionEnded(8L, false);
        jp.transactionEnded(9L, true); // a producer with nothing here
        seen.clear();
        jp.overlay("a", seen, null);
        assertEquals(Map.of(TP, at(10), other, at(30)), seen);
        assertTrue(!jp.hasPendingCommit("a", TP) && !jp.hasPendingCommit("a", other));
        JournalPartition.Flush committed = jp.takeBelow(5);
        assertEquals(5, committed.mark());
        assertEquals(2, committed.entries().size());
    }

    @Test
    public void aCommitMadeWhileWritingStaysUnwritten() {
        JournalPartition jp = new JournalPartition(0, 1, 0, 0);
        jp.appended("a", Map.of(TP, at(10)), 0, 0);
        JournalPartition.Flush flush = jp.takeBelow(1);
        jp.appended("a", Map.of(TP, at(12)), 1, 1);
        jp.written(flush);
        assertEquals(1, jp.unwrittenCount());
        assertEquals(List.of(TP), jp.unwrittenPartitions("a"));
    }

    @Test
    public void theOverlayShowsUnwrittenCommitsAndDeletions() {
        JournalPartition jp = new JournalPartition(0, 1, 0, 0);
        TopicPartition other = new TopicPartition("t", 1);
        Map<TopicPartition, OffsetRegistry.Committed> deletion = new HashMap<>();
        deletion.put(other, null);
        jp.appended("a", Map.of(TP, at(12)), 0, 0);
        jp.appended("a", deletion, 1, 1);
        jp.appended("b", Map.of(TP, at(99)), 2, 2);

        Map<TopicPartition, OffsetRegistry.Committed> fromRegistry = new HashMap<>(Map.of(TP, at(5), other, at(6)));
        jp.overlay("a", fromRegistry, null);
        assertEquals(Map.of(TP, at(12)), fromRegistry);

        Map<TopicPartition, OffsetRegistry.Committed> asked = new HashMap<>();
        jp.overlay("a", asked, List.of(other));
        assertTrue(asked.isEmpty());
    }

    @Test
    public void eachGroupKeepsItsLatestGenerationAndATombstoneForgetsIt() {
        JournalPartition jp = new JournalPartition(0, 1, 0, 0);
        assertEquals(Long.MAX_VALUE, jp.oldestGroupOffset());
        jp.groupAppended("a", new byte[] {1}, 3);
        jp.groupAppended("b", new byte[] {2}, 5);
        jp.groupAppended("a", new byte[] {3}, 8); // a's next generation
        assertEquals(5, jp.oldestGroupOffset());
        assertEquals(8, jp.groups().get("a").logOffset());
        synchronized (jp) {
            assertEquals(java.util.Set.of("b"), jp.groupsBelow(8).keySet());
            assertEquals(java.util.Set.of("a", "b"), jp.groupsBelow(9).keySet());
        }
        jp.groupAppended("b", null, 9);
        assertEquals(false, jp.hasGroup("b"));
        assertEquals(8, jp.oldestGroupOffset());
    }

    @Test
    public void generationsAppendedAgainGoInBoundedBatches() {
        Map<String, byte[]> generations = new java.util.HashMap<>();
        for (int i = 0; i < 10; i++) {
            generations.put("g" + i, new byte[OffsetJournal.REWRITE_BATCH_BYTES / 4]);
        }
        generations.put("huge", new byte[OffsetJournal.REWRITE_BATCH_BYTES * 2]);
        java.util.List<Map<String, byte[]>> chunks = OffsetJournal.chunks(generations, OffsetJournal.REWRITE_BATCH_BYTES);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Map<String, byte[]> chunk : chunks) {
            int bytes = chunk.values().stream().mapToInt(v -> v.length).sum();
            assertEquals(true, chunk.size() == 1 || bytes <= OffsetJournal.REWRITE_BATCH_BYTES);
            chunk.keySet().forEach(g -> assertEquals(true, seen.add(g)));
        }
        assertEquals(generations.keySet(), seen);
        assertEquals(true, chunks.size() >= 4);
    }
}
