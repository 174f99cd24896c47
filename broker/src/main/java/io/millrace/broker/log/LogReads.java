package io.millrace.broker.log;

import io.millrace.common.errors.OffsetOutOfRangeException;
import java.io.IOException;
import java.util.Map;
import java.util.NavigableMap;

/**
 * {@link Log#read}: finds the segment of an offset in the sorted map of base offsets and reads a
 * slice of its file, never past the end the read saw first. Takes no lock.
 */
final class LogReads {

    private final Log log;

    LogReads(Log log) {
        this.log = log;
    }

    FileSlice read(long startOffset, int maxBytes, boolean minOneBatch) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        log.health().ensureUsable();
        LogEnd end = log.end();
        if (startOffset == end.offset()) {
            return end.segment().emptySlice(end.position());
        }
        if (startOffset < log.logStartOffset() || startOffset > end.offset()) {
            throw outOfRange(startOffset, end);
        }
        NavigableMap<Long, LogSegment> segments = log.segmentMap();
        Map.Entry<Long, LogSegment> entry = segments.floorEntry(startOffset);
        while (entry != null && entry.getKey() < end.offset()) {
            LogSegment segment = entry.getValue();
            FileSlice slice = readSegment(segment, startOffset, maxBytes, end.maxPosition(segment), minOneBatch);
            if (slice != null) {
                return slice;
            }
            entry = segments.higherEntry(entry.getKey());
        }
        // Retention deleted the segment between the range check and the lookup.
        throw outOfRange(startOffset, end);
    }

    private FileSlice readSegment(LogSegment segment, long startOffset, int maxBytes, int maxPosition, boolean minOneBatch) {
        try {
            return segment.read(startOffset, maxBytes, maxPosition, minOneBatch);
        } catch (IOException e) {
            if (segment.isDeleted()) {
                throw outOfRange(startOffset, log.end());
            }
            throw log.health().offline("read from", e);
        }
    }

    private OffsetOutOfRangeException outOfRange(long offset, LogEnd end) {
        return new OffsetOutOfRangeException("Offset " + offset + " is out of range for " + log.topicPartition()
            + ", which holds offsets " + log.logStartOffset() + " to " + end.offset() + " (exclusive)");
    }
}
