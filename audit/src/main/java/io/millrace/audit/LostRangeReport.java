package io.millrace.audit;

/** Offsets {@code [firstOffset, lastOffset]} of one partition that a tier knows it could not deliver. */
public record LostRangeReport(String topic, int partition, long firstOffset, long lastOffset) {

    public LostRangeReport {
        if (lastOffset < firstOffset) {
            throw new IllegalArgumentException("Lost range of " + topic + "-" + partition + " ends (" + lastOffset
                + ") before it starts (" + firstOffset + ")");
        }
    }

    public long count() {
        return lastOffset - firstOffset + 1;
    }
}
