package io.millrace.consumer;

import io.millrace.consumer.internals.FetchedChunk;
import io.millrace.consumer.internals.RecordConverter;
import java.util.concurrent.BlockingQueue;

/**
 * One of the never-ending streams of messages of {@link GroupConsumer#createMessageStreams}: the
 * messages of the partitions the rebalance gives this stream's consumer thread, in offset order
 * within each partition. It is fed by the fetchers through a bounded queue of chunks
 * ({@code queued.max.message.chunks}), which is the back-pressure: a stream that is not read stops its
 * fetcher. Meant to be read by one application thread; {@link #iterator()} returns the one iterator
 * of the stream.
 */
public final class MessageStream<K, V> implements Iterable<ConsumerRecord<K, V>> {

    private final ConsumerIterator<K, V> iterator;
    private final BlockingQueue<FetchedChunk> queue;

    MessageStream(BlockingQueue<FetchedChunk> queue, RecordConverter<K, V> converter, long timeoutMs, boolean checkCrcs) {
        this.queue = queue;
        this.iterator = new ConsumerIterator<>(queue, converter, timeoutMs, checkCrcs);
    }

    /** The stream's iterator: {@code hasNext()} blocks until a message arrives, the consumer closes or times out. */
    @Override
    public ConsumerIterator<K, V> iterator() {
        return iterator;
    }

    BlockingQueue<FetchedChunk> queue() {
        return queue;
    }
}
