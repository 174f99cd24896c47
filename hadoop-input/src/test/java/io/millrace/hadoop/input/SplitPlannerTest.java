package io.millrace.hadoop.input;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class SplitPlannerTest {

    @Test
    public void longRangesAreCutIntoChunksAndOnlyTheFirstChunkCarriesTheLostOffsets() {
        List<MillraceInputSplit> splits = new SplitPlanner(100).plan(List.of(new PartitionRange("t", 0, 50, 300, 7)));
        assertEquals(3, splits.size());
        assertEquals(List.of(new PartitionRange("t", 0, 50, 150, 7)), splits.get(0).ranges());
        assertEquals(List.of(new PartitionRange("t", 0, 150, 250, 0)), splits.get(1).ranges());
        assertEquals(List.of(new PartitionRange("t", 0, 250, 300, 0)), splits.get(2).ranges());
        assertEquals(0, splits.get(0).getLocations().length);
    }

    @Test
    public void smallRangesShareSplitsUpToTheLimitAndEmptyOnesAreLeftOut() {
        List<PartitionRange> ranges = List.of(new PartitionRange("a", 0, 0, 40), new PartitionRange("a", 1, 10, 10),
            new PartitionRange("a", 2, 0, 50), new PartitionRange("b", 0, 5, 25), new PartitionRange("b", 1, 3, 3, 9));
        List<MillraceInputSplit> splits = new SplitPlanner(100).plan(ranges);
        assertEquals(2, splits.size());
        assertEquals(List.of(ranges.get(0), ranges.get(2)), splits.get(0).ranges());
        assertEquals(List.of(ranges.get(3), ranges.get(4)), splits.get(1).ranges());
        assertEquals("a+0+0+40+1more", splits.get(0).name());
        assertEquals(90, splits.get(0).getLength());
    }

    @Test
    public void aSplitSurvivesSerialization() throws Exception {
        MillraceInputSplit split = new MillraceInputSplit(List.of(new PartitionRange("t", 3, 1, 9, 2), new PartitionRange("u", 0, 0, 1)));
        org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
        split.write(out);
        org.apache.hadoop.io.DataInputBuffer in = new org.apache.hadoop.io.DataInputBuffer();
        in.reset(out.getData(), out.getLength());
        MillraceInputSplit read = new MillraceInputSplit();
        read.readFields(in);
        assertEquals(split.ranges(), read.ranges());
    }
}
