package io.millrace.hadoop.input;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * The work of one map task: one or more partition ranges, read one after the other. Splits carry no
 * locations: brokers are not Hadoop nodes, so any node reads as well as any other.
 */
public final class MillraceInputSplit extends InputSplit implements Writable {

    private static final String[] NO_LOCATIONS = new String[0];

    private List<PartitionRange> ranges;

    /** For Hadoop's deserialization; {@link #readFields} fills it in. */
    public MillraceInputSplit() {
        this.ranges = List.of();
    }

    public MillraceInputSplit(List<PartitionRange> ranges) {
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("A split needs at least one range");
        }
        this.ranges = List.copyOf(ranges);
    }

    public List<PartitionRange> ranges() {
        return ranges;
    }

    /** The number of offsets to read: what the scheduler sorts splits by, and the denominator of progress. */
    @Override
    public long getLength() {
        return ranges.stream().mapToLong(PartitionRange::size).sum();
    }

    @Override
    public String[] getLocations() {
        return NO_LOCATIONS;
    }

    /** The first range's name, plus how many ranges follow it: unique among splits, the same in every attempt. */
    public String name() {
        PartitionRange first = ranges.get(0);
        return ranges.size() == 1 ? first.name() : first.name() + "+" + (ranges.size() - 1) + "more";
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeInt(ranges.size());
        for (PartitionRange range : ranges) {
            range.write(out);
        }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        int count = in.readInt();
        List<PartitionRange> read = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            read.add(PartitionRange.read(in));
        }
        ranges = List.copyOf(read);
    }

    @Override
    public String toString() {
        return "MillraceInputSplit" + ranges;
    }
}
