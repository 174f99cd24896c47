package io.millrace.common.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * The channel's read buffers, chosen with its {@link ResponseFrameDecoder}: while a response is
 * being read into a pooled direct frame, the socket read goes straight into the frame's unfilled
 * part; otherwise into a buffer of the allocator the channel had (sized as it sizes them). One per
 * channel: it knows that channel's decoder.
 */
final class FrameReadAllocator implements RecvByteBufAllocator {

    private final RecvByteBufAllocator sizing;
    private final ResponseFrameDecoder decoder;

    FrameReadAllocator(RecvByteBufAllocator sizing, ResponseFrameDecoder decoder) {
        this.sizing = sizing;
        this.decoder = decoder;
    }

    @Override
    public Handle newHandle() {
        return new FrameHandle((ExtendedHandle) sizing.newHandle());
    }

    /**
     * The sizing handle's bookkeeping, with the frame offered first as the buffer to read into. It
     * implements the extended handle, not Netty's {@code DelegatingHandle}: the epoll transport
     * requires the extended one.
     */
    private final class FrameHandle implements ExtendedHandle {

        private final ExtendedHandle sizing;

        FrameHandle(ExtendedHandle sizing) {
            this.sizing = sizing;
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            ByteBuf target = decoder.readTarget();
            return target != null ? target : sizing.allocate(alloc);
        }

        @Override
        public int guess() {
            return sizing.guess();
        }

        @Override
        public void reset(ChannelConfig config) {
            sizing.reset(config);
        }

        @Override
        public void incMessagesRead(int numMessages) {
            sizing.incMessagesRead(numMessages);
        }

        @Override
        public void lastBytesRead(int bytes) {
            sizing.lastBytesRead(bytes);
        }

        @Override
        public int lastBytesRead() {
            return sizing.lastBytesRead();
        }

        @Override
        public void attemptedBytesRead(int bytes) {
            sizing.attemptedBytesRead(bytes);
        }

        @Override
        public int attemptedBytesRead() {
            return sizing.attemptedBytesRead();
        }

        @Override
        public boolean continueReading() {
            return sizing.continueReading();
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return sizing.continueReading(maybeMoreDataSupplier);
        }

        @Override
        public void readComplete() {
            sizing.readComplete();
        }
    }
}
