package io.millrace.consumer;

import io.millrace.common.TopicPartition;

/**
 * The records of an offset range as one {@link RecordView}, moved from record to record: for
 * readers that want the bytes, not objects. Nothing is copied and nothing is allocated per
 * record; a batch's CRC is checked once, before its first record. The same records are handed
 * out, in the same order, as by the copying iterators: none below the start offset, none of
 * control batches, none from the end offset on.
 *
 * <pre>
 * RecordViews views = reader.readViews(tp, start, end);
 * while (views.advance()) {
 *     RecordView record = views.current();
 *     sink.write(record.buffer(), record.valuePosition(), record.valueLength());
 * }
 * </pre>
 *
 * From {@link PartitionReader#readViews} (fetching as it goes, the next response already on its
 * way while the caller reads the current one) or {@link FetchedBatches#views} (one fetch). The
 * responses {@code readViews} fetches ahead are read from the socket straight into direct buffers
 * of the reader's pool, and each buffer goes back to the pool when the cursor leaves its response:
 * nothing is zeroed or copied on the way in, and a view is valid only until the next advance. Not
 * thread-safe.
 */
public final class RecordViews {

    private final RangeFetches fetches;
    private final RecordView view;
    private final ViewCursor cursor;
    /** The response the cursor is in, given back to the reader's pool once the cursor leaves it. */
    private FetchedBatches response;

    private RecordViews(RangeFetches fetches, TopicPartition tp) {
        this.fetches = fetches;
        this.view = new RecordView(tp);
        this.cursor = new ViewCursor(view);
    }

    static RecordViews of(RangeFetches fetches) {
        return new RecordViews(fetches, fetches.partition());
    }

    static RecordViews of(FetchedBatches fetched, long fromOffset, long endOffset) {
        RecordViews views = new RecordViews(null, fetched.partition());
        views.cursor.reset(fetched, fromOffset, endOffset);
        return views;
    }

    /**
     * Moves {@link #current()} to the next record; false when the range is done. Fetches when the
     * current response is used up, and throws what {@link PartitionReader#fetch} throws; a batch
     * that fails its CRC check raises {@link io.millrace.common.errors.CorruptRecordException}.
     */
    public boolean advance() {
        while (!cursor.advance()) {
            if (response != null) {
                response.release();
                response = null;
            }
            if (fetches == null || !fetches.hasMore()) {
                return false;
            }
            response = fetches.next();
            cursor.reset(response, 0, fetches.endOffset());
        }
        return true;
    }

    /** The record {@link #advance()} moved to: the same object every time, valid until the next advance. */
    public RecordView current() {
        return view;
    }
}
