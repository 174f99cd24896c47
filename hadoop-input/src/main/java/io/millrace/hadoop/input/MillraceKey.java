package io.millrace.hadoop.input;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Comparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;

/**
 * Where a message lies: topic, partition, offset. Mutable, so that a record reader can reuse one
 * instance for every message, as Hadoop's readers do; copy it to keep it. Orders by topic, then
 * partition, then offset.
 */
public final class MillraceKey implements WritableComparable<MillraceKey> {

    private static final Comparator<MillraceKey> ORDER = Comparator.comparing(MillraceKey::topic)
        .thenComparingInt(MillraceKey::partition).thenComparingLong(MillraceKey::offset);

    private String topic = "";
    private int partition;
    private long offset;

    public MillraceKey() {
    }

    public MillraceKey(String topic, int partition, long offset) {
        set(topic, partition, offset);
    }

    public void set(String topic, int partition, long offset) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        Text.writeString(out, topic);
        out.writeInt(partition);
        out.writeLong(offset);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        topic = Text.readString(in);
        partition = in.readInt();
        offset = in.readLong();
    }

    @Override
    public int compareTo(MillraceKey other) {
        return ORDER.compare(this, other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MillraceKey k && k.topic.equals(topic) && k.partition == partition && k.offset == offset;
    }

    @Override
    public int hashCode() {
        return (topic.hashCode() * 31 + partition) * 31 + Long.hashCode(offset);
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
