package io.millrace.hadoop.input;

import static org.junit.Assert.assertEquals;

import io.millrace.hadoop.state.CommittedOffset;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class RecreatedTopicsTest {

    @Test
    public void aTopicWhoseIdChangedIsRecreatedOnceWhateverItsPartitionCount() {
        List<CommittedOffset> committed = List.of(new CommittedOffset("a", 0, 10, "id-a"), new CommittedOffset("a", 1, 12, "id-a"),
            new CommittedOffset("b", 0, 5, "id-b"));
        assertEquals(Map.of("a", "id-a -> id-a2"), RecreatedTopics.find(committed, Map.of("a", "id-a2", "b", "id-b")));
    }

    @Test
    public void offsetsOrTopicsWithoutAnIdCannotBeCheckedAndCountAsUnchanged() {
        List<CommittedOffset> committed = List.of(new CommittedOffset("old", 0, 10), new CommittedOffset("b", 0, 5, "id-b"),
            new CommittedOffset("gone", 0, 3, "id-gone"));
        assertEquals(Map.of(), RecreatedTopics.find(committed, Map.of("old", "id-new")));
    }
}
