package io.millrace.hadoop.input.mapred;

import io.millrace.hadoop.input.MillraceInputSplit;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.mapred.InputSplit;

/** A {@link MillraceInputSplit} seen through the old {@code org.apache.hadoop.mapred} API. */
public final class MapredSplit implements InputSplit {

    private MillraceInputSplit split;

    /** For Hadoop's deserialization. */
    public MapredSplit() {
        this.split = new MillraceInputSplit();
    }

    public MapredSplit(MillraceInputSplit split) {
        this.split = split;
    }

    public MillraceInputSplit split() {
        return split;
    }

    @Override
    public long getLength() {
        return split.getLength();
    }

    @Override
    public String[] getLocations() {
        return split.getLocations();
    }

    @Override
    public void write(DataOutput out) throws IOException {
        split.write(out);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        split = new MillraceInputSplit();
        split.readFields(in);
    }
}
