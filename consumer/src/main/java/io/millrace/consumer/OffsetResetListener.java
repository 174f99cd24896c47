package io.millrace.consumer;

import io.millrace.common.TopicPartition;

/**
 * Told when a {@link GroupConsumer} finds that a partition no longer holds the offset it was to read
 * (retention deleted it, or a seek went too far) and moves as {@code auto.offset.reset} says. When it
 * moves forward, the offsets in between were never delivered: a lost range, which an application that
 * must account for every message (a mirror, an audit) reports. Runs on a fetcher thread; keep it short.
 */
@FunctionalInterface
public interface OffsetResetListener {

    OffsetResetListener NONE = (tp, from, to) -> { };

    /**
     * @param from the offset the consumer was to read next
     * @param to   where it goes on: when larger than {@code from}, {@code [from, to)} was never delivered
     */
    void onReset(TopicPartition tp, long from, long to);
}
