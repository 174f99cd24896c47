package io.millrace.audit;

import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.MessageStream;

/**
 * One stream of an {@link AuditingConsumer}: the group consumer's {@link MessageStream}, decoded and
 * counted. Meant to be read by one application thread; {@link #iterator()} returns the stream's one
 * iterator.
 */
public final class AuditedStream<K, V> implements Iterable<ConsumerRecord<K, V>> {

    private final AuditedIterator<K, V> iterator;

    AuditedStream(MessageStream<byte[], byte[]> stream, RecordDecoder<K, V> decoder, ConsumerAudit audit) {
        this.iterator = new AuditedIterator<>(stream.iterator(), decoder, audit);
    }

    /** The stream's iterator: {@code hasNext()} blocks until a record arrives, the consumer closes or times out. */
    @Override
    public AuditedIterator<K, V> iterator() {
        return iterator;
    }
}
