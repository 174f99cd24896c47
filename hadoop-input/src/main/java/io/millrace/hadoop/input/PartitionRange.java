package io.millrace.hadoop.input;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.millrace.common.TopicPartition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;

/**
 * The offsets {@code [start, end)} of one partition that one task reads, and how many offsets
 * retention deleted before they could be loaded ({@code lost}, counted by the task that reads the
 * range, so that the job's counter shows it; only the first chunk of a partition carries it).
 * Immutable; serialized into the split with {@link #write} / {@link #read}.
 */
public record PartitionRange(String topic, int partition, long start, long end, long lost) {

    public PartitionRange {
        if (start < 0 || end < start || lost < 0) {
            throw new IllegalArgumentException("Bad range " + topic + "-" + partition + " [" + start + ", " + end
                + ") lost " + lost);
        }
    }

    public PartitionRange(String topic, int partition, long start, long end) {
        this(topic, partition, start, end, 0);
    }

    @JsonIgnore
    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    /** The number of offsets in the range (records, unless compaction removed some). */
    @JsonIgnore
    public long size() {
        return end - start;
    }

    /** {@code topic+partition+start+end}: how file names refer to the range. */
    @JsonIgnore
    public String name() {
        return topic + "+" + partition + "+" + start + "+" + end;
    }

    public void write(DataOutput out) throws IOException {
        Text.writeString(out, topic);
        out.writeInt(partition);
        out.writeLong(start);
        out.writeLong(end);
        out.writeLong(lost);
    }

    public static PartitionRange read(DataInput in) throws IOException {
        return new PartitionRange(Text.readString(in), in.readInt(), in.readLong(), in.readLong(), in.readLong());
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "[" + start + ", " + end + ")" + (lost > 0 ? " lost " + lost : "");
    }
}
