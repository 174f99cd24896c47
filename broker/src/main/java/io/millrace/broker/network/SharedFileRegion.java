package io.millrace.broker.network;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A {@link DefaultFileRegion} over a file channel that someone else owns (a log segment).
 * {@code DefaultFileRegion} closes its channel when released; this one leaves it open, since the
 * segment keeps serving other fetches. It stays a {@code DefaultFileRegion} so that the epoll
 * transport sends it with {@code sendfile}; NIO calls {@code FileChannel.transferTo}.
 */
final class SharedFileRegion extends DefaultFileRegion {

    SharedFileRegion(FileChannel channel, long position, long count) {
        super(channel, position, count);
    }

    @Override
    protected void deallocate() {
        // The channel belongs to the log: nothing to close here.
    }
}
