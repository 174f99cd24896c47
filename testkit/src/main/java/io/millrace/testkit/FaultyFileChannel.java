package io.millrace.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link FileChannel} that passes everything to a real one until its {@link Switch} is thrown,
 * then fails every read, write and force with an {@link IOException}, the way a dying disk does.
 * Several channels can share one switch, e.g. all files of one log directory. Closing always
 * works, so the code under test can clean up. Thread-safe as far as the wrapped channel is.
 */
public final class FaultyFileChannel extends FileChannel {

    /** Turns the failures of every channel that shares it on or off. Thread-safe. */
    public static final class Switch {
        private final AtomicBoolean failing = new AtomicBoolean();

        public void fail() {
            failing.set(true);
        }

        public void heal() {
            failing.set(false);
        }

        public boolean isFailing() {
            return failing.get();
        }
    }

    private final FileChannel delegate;
    private final Switch faults;

    public FaultyFileChannel(FileChannel delegate, Switch faults) {
        this.delegate = delegate;
        this.faults = faults;
    }

    private void check(String operation) throws IOException {
        if (faults.isFailing()) {
            throw new IOException("Injected I/O error on " + operation);
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        check("read");
        return delegate.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        check("read");
        return delegate.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        check("write");
        return delegate.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        check("write");
        return delegate.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        check("size");
        return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        check("truncate");
        delegate.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        check("force");
        delegate.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        check("transferTo");
        return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        check("transferFrom");
        return delegate.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        check("read");
        return delegate.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        check("write");
        return delegate.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        check("map");
        return delegate.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        delegate.close();
    }
}
