package io.millrace.mirror;

import io.millrace.consumer.ConsumerRecord;
import io.millrace.producer.ProducerRecord;
import java.util.List;

/**
 * Turns each record the mirror reads from a live cluster into the records it writes to the offline
 * cluster: none (a filter), the copy itself, a changed copy, or several. Named by the mirror's
 * {@code message.handler} setting, Kafka MirrorMaker's {@code --message.handler}.
 *
 * <p>Each mirror thread has an instance of its own, made with the public no-argument constructor and
 * then {@link #configure configured}, so an implementation need not be thread-safe. With a handler the
 * mirror copies record by record (never whole batches) and counts no duplicates.
 *
 * <p>The no-loss rule still holds: a live offset is committed only once every record the handler
 * returned for it, and for everything before it in its partition, was acknowledged by the offline
 * cluster; a record it returns nothing for is done at once. A handler that throws stops the stream
 * like a refused send, and nothing from that record on is committed.
 *
 * <p>The audit's {@code offline} tier counts what the offline cluster acknowledged, per live record
 * and under its live topic and time: a record the handler drops is missing there and downstream, and
 * one it returns twice is counted twice. Filtering here therefore reads as loss in the audit report;
 * choose the topics with {@code whitelist} and {@code blacklist} instead when that is all that is wanted.
 */
public interface MirrorMessageHandler {

    /** Called once, before the first record, with the {@code message.handler.args} setting (empty when not given). */
    default void configure(String args) {
    }

    /**
     * The records to write for {@code record}, in the order they should be sent.
     *
     * @param record the record as read from the live cluster
     * @param copy what the mirror would write without a handler: the offline topic (after {@code topic.rename}),
     *             the partition {@code partition.placement} picks (null for the producer's choice), and the
     *             record's timestamp, key, value and headers
     * @return the records to send, never null; an empty list drops the record
     */
    List<ProducerRecord<byte[], byte[]>> handle(ConsumerRecord<byte[], byte[]> record, ProducerRecord<byte[], byte[]> copy);
}
