package io.millrace.audit;

import io.millrace.consumer.ConsumerIterator;
import io.millrace.consumer.ConsumerRecord;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The iterator of an {@link AuditedStream}, which behaves as the group consumer's own
 * ({@link ConsumerIterator}): {@link #hasNext()} blocks for the next record, and a record handed out
 * is finished, and covered by the next commit, once the application comes back for more or calls
 * {@link #markProcessed()}. That is also when it is counted, after its offset moved, so that no
 * commit can miss a record that was counted. A record whose key or value cannot be decoded is never
 * handed out: it is finished at once, and counted as malformed. Not thread-safe: one reading thread,
 * as for the group consumer's streams.
 */
public final class AuditedIterator<K, V> implements Iterator<ConsumerRecord<K, V>> {

    private final ConsumerIterator<byte[], byte[]> raw;
    private final RecordDecoder<K, V> decoder;
    private final ConsumerAudit audit;
    private ConsumerRecord<byte[], byte[]> inHand;      // the last record found: the application's once next() returned it
    private ConsumerRecord<byte[], byte[]> undecoded;   // taken from the stream, not yet decoded
    private ConsumerRecord<K, V> next;

    AuditedIterator(ConsumerIterator<byte[], byte[]> raw, RecordDecoder<K, V> decoder, ConsumerAudit audit) {
        this.raw = raw;
        this.decoder = decoder;
        this.audit = audit;
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        markProcessed();   // the application came back for more: what next() returned is done
        while (undecoded != null || raw.hasNext()) {
            ConsumerRecord<byte[], byte[]> record = undecoded != null ? undecoded : raw.next();
            undecoded = record;   // kept while decoding may throw (the registry unreachable): decoded again next time
            ConsumerRecord<K, V> decoded = decoder.decode(record);
            undecoded = null;
            if (decoded != null) {
                inHand = record;
                next = decoded;
                return true;
            }
            raw.markProcessed();
            audit.malformed(record);
        }
        return false;
    }

    @Override
    public ConsumerRecord<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The consumer is closed");
        }
        ConsumerRecord<K, V> record = next;
        next = null;
        return record;
    }

    /**
     * Says the application has finished the records {@link #next()} returned, so the next commit covers
     * them, as {@link ConsumerIterator#markProcessed()} does; from the thread that reads this stream.
     */
    public void markProcessed() {
        if (inHand == null || next != null) {
            return;   // nothing handed out, or the record hasNext() found is not the application's yet
        }
        raw.markProcessed();   // the offset first: a commit that sees the count then covers the record
        audit.processed(inHand);
        inHand = null;
    }
}
