package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The responses that cover one partition's offset range {@code [start, end)}, fetched ahead: the
 * fetch after a response leaves from the connection's I/O thread as soon as that response has
 * arrived, not when the caller takes it, which saves a hand-off to the caller's thread and back per
 * response and lets the next one travel while the caller is still on an earlier one.
 *
 * <p>A fetch can only start where the response before it ends, so one fetch at a time would leave
 * every response a round trip of its own: the broker idle while the client reads, the client idle
 * while the broker sends. When two small responses in a row (see {@link #GUESS_MAX_BYTES}) covered
 * the same number of offsets, as they do over batches of one size, the fetch after the one on its
 * way is sent at once from where that one should end: a guess. It is used only if the response
 * before it ends exactly there; otherwise it is dropped unread and the fetch from where that
 * response did end is sent instead, so a guess costs at most a response's bytes and never changes
 * what the caller gets. Guesses stay below the range's end and the partition's high watermark, so
 * they never wait for records to be written.
 *
 * <p>At most {@link #MAX_AHEAD} responses are fetched ahead of the caller, on their way or waiting;
 * beyond that the next fetch leaves when the caller takes one. Behind {@link RangeIterator} and
 * {@link RecordViews}. Not thread-safe: one caller at a time.
 */
final class RangeFetches {

    /** Responses fetched ahead of the caller, on their way or arrived, beyond which fetching ahead waits. */
    static final int MAX_AHEAD = 3;

    /**
     * Responses above this are not guessed after. A response that takes longer to carry than a round
     * trip gains little from a second one in flight: with Kafka's default 1 MiB fetches, guesses made
     * a reader slower when first measured (11.2-12.4 M records/s against 12.6-13.9 M without, the
     * broker's sends spending longer in the kernel's transmit path) and no faster later (13.6 against
     * 13.4 M), where 200 KB fetches gained a fifth; and a wrong guess of a megabyte wastes a megabyte.
     */
    static final int GUESS_MAX_BYTES = 256 * 1024;

    private final PartitionReader reader;
    private final TopicPartition tp;
    private final long endOffset;
    /** Whether responses fetched ahead are read into pooled buffers that the caller gives back. */
    private final boolean pooled;
    private long nextOffset;
    /** The fetch after the latest response taken, already on its way; null when none was started. */
    private CompletableFuture<Arrived> prefetched;
    /** Fetches sent ahead, neither taken nor dropped yet: counted by the I/O thread and the caller both. */
    private final AtomicInteger ahead = new AtomicInteger();

    /** A response that arrived (null when its fetch failed), and the fetch after it if one was started then. */
    private record Arrived(FetchedBatches batches, CompletableFuture<Arrived> next) {
    }

    /** A fetch sent ahead: the offset it was sent from, and its response (null when it failed). */
    private record InFlight(long offset, CompletableFuture<FetchedBatches> response) {
    }

    RangeFetches(PartitionReader reader, TopicPartition tp, long startOffset, long endOffset, boolean pooled) {
        this.reader = reader;
        this.pooled = pooled;
        this.tp = tp;
        this.nextOffset = startOffset;
        this.endOffset = endOffset;
    }

    TopicPartition partition() {
        return tp;
    }

    long endOffset() {
        return endOffset;
    }

    /** Whether offsets of the range are left to fetch. */
    boolean hasMore() {
        return nextOffset < endOffset;
    }

    /**
     * The next response of the range, from {@link #hasMore() the first offset not yet fetched}: an
     * empty one when the partition has nothing there yet (the fetch waited fetch.max.wait.ms).
     * Throws what {@link PartitionReader#fetch} throws. When this range is pooled, the caller calls
     * {@link FetchedBatches#release()} on each response once it is past it.
     */
    FetchedBatches next() {
        Arrived arrived = prefetched == null ? null : prefetched.join();
        prefetched = null;
        FetchedBatches fetched;
        if (arrived != null) {
            ahead.decrementAndGet();
        }
        if (arrived == null || arrived.batches() == null) {
            fetched = reader.fetch(tp, nextOffset);
        } else {
            fetched = arrived.batches();
            prefetched = arrived.next();
        }
        long fetchedUpTo = fetched.nextOffset();
        if (prefetched == null && continues(fetchedUpTo, nextOffset)) {
            prefetched = fetchAhead(fetchedUpTo);
        }
        nextOffset = Math.min(endOffset, fetchedUpTo);
        return fetched;
    }

    /** Whether the range goes on after a response from {@code offset} to {@code fetchedUpTo}, which moved forward. */
    private boolean continues(long fetchedUpTo, long offset) {
        return fetchedUpTo > offset && fetchedUpTo < endOffset;
    }

    /** The fetch from {@code offset}, which on arrival starts the ones after it; null when enough are ahead. */
    private CompletableFuture<Arrived> fetchAhead(long offset) {
        InFlight fetch = sendAhead(offset);
        return fetch == null ? null : follow(fetch, null, -1);
    }

    /**
     * What {@code fetch} brings. On arrival the fetch after it starts, unless {@code guess}, sent
     * before {@code fetch} arrived from where it was expected to end, starts there already; and when
     * this response covered as many offsets as {@code previousSpan}, the one before it, the fetch
     * after that is guessed in turn.
     */
    private CompletableFuture<Arrived> follow(InFlight fetch, InFlight guess, long previousSpan) {
        return fetch.response().thenApply(batches -> {
            if (batches == null) {
                drop(guess);
                return new Arrived(null, null);   // the caller fetches again, and reports what went wrong
            }
            long end = batches.nextOffset();   // a walk over the batch headers: once per response
            if (!continues(end, fetch.offset())) {
                drop(guess);
                return new Arrived(batches, null);
            }
            InFlight next = guess;
            if (guess == null || guess.offset() != end) {
                drop(guess);
                next = sendAhead(end);
            } else {
                reader.guessUsed();
            }
            if (next == null) {
                return new Arrived(batches, null);
            }
            long span = end - fetch.offset();
            boolean regular = span == previousSpan && batches.sizeInBytes() <= GUESS_MAX_BYTES;
            InFlight after = regular ? guessAfter(next, span, batches.highWatermark()) : null;
            return new Arrived(batches, follow(next, after, span));
        });
    }

    /** The fetch from where {@code next} ends if it covers {@code span} offsets, when records are there. */
    private InFlight guessAfter(InFlight next, long span, long highWatermark) {
        long offset = next.offset() + span;
        if (offset >= Math.min(endOffset, highWatermark)) {
            return null;
        }
        InFlight guess = sendAhead(offset);
        if (guess != null) {
            reader.guessSent();
        }
        return guess;
    }

    /** The fetch from {@code offset}, sent unless {@link #MAX_AHEAD} are ahead already. */
    private InFlight sendAhead(long offset) {
        if (ahead.incrementAndGet() > MAX_AHEAD) {
            ahead.decrementAndGet();
            return null;
        }
        return new InFlight(offset, reader.prefetch(tp, offset, pooled));
    }

    /** A guess that missed the end of the response before it, or is not needed: its response goes back unread. */
    private void drop(InFlight guess) {
        if (guess != null) {
            ahead.decrementAndGet();
            guess.response().thenAccept(batches -> {
                if (batches != null) {
                    batches.release();
                }
            });
        }
    }
}
