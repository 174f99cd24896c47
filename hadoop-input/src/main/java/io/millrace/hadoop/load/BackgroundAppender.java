package io.millrace.hadoop.load;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.avro.file.DataFileWriter;

/**
 * Appends encoded events to their Avro files on a thread of its own, in the order they were given, so that
 * compressing and writing the files' blocks runs beside the map task's reading rather than after it. The
 * task hands events over in batches; {@link #finish} waits until every event given is in its file's writer
 * and reports the first failure. A failure also surfaces at the next hand-over, so a task whose files cannot
 * be written fails as it would writing them itself. Single producer: one task thread. The files' writers
 * are the caller's to close, after {@link #finish} or {@link #abort}.
 */
final class BackgroundAppender {

    static final int BATCH = 1024;
    private static final int BATCHES_IN_FLIGHT = 4;
    private static final Batch END = new Batch();

    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(BATCHES_IN_FLIGHT);
    private final Thread thread;
    private volatile Throwable failure;
    private Batch current = new Batch();

    /** A batch of events, each with the writer of its file. */
    private static final class Batch {
        final DataFileWriter<?>[] writers = new DataFileWriter<?>[BATCH];
        final ByteBuffer[] data = new ByteBuffer[BATCH];
        int size;
    }

    BackgroundAppender(String name) {
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    // hot path: once per event
    void append(DataFileWriter<?> writer, ByteBuffer datum) throws IOException {
        Batch batch = current;
        batch.writers[batch.size] = writer;
        batch.data[batch.size++] = datum;
        if (batch.size == BATCH) {
            hand(batch);
            current = new Batch();
        }
    }

    /** Waits until every event given is appended; throws what went wrong appending any of them. */
    void finish() throws IOException {
        if (current.size > 0) {
            hand(current);
            current = new Batch();
        }
        stop();
        checkFailure();
    }

    /** Stops without caring what was appended (the task failed, its files are thrown away). */
    void abort() {
        failure = failure == null ? new IOException("aborted") : failure;
        try {
            stop();
        } catch (InterruptedIOException e) {
            thread.interrupt();
        }
    }

    private void hand(Batch batch) throws IOException {
        checkFailure();
        put(batch);
    }

    private void stop() throws InterruptedIOException {
        if (!thread.isAlive()) {
            return;
        }
        put(END);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted waiting for the events to be written");
        }
    }

    private void put(Batch batch) throws InterruptedIOException {
        try {
            queue.put(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted handing events over to be written");
        }
    }

    private void checkFailure() throws IOException {
        Throwable t = failure;
        if (t != null) {
            throw t instanceof IOException io ? io : new IOException("Writing the events failed: " + t, t);
        }
    }

    private void run() {
        try {
            for (Batch batch = queue.take(); batch != END; batch = queue.take()) {
                if (failure == null) {
                    write(batch);
                }
            }
        } catch (InterruptedException e) {
            failure = failure == null ? e : failure;
        }
    }

    private void write(Batch batch) {
        try {
            for (int i = 0; i < batch.size; i++) {
                batch.writers[i].appendEncoded(batch.data[i]);
            }
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
        }
    }
}
