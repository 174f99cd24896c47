package io.millrace.broker.network;

import io.netty.channel.Channel;
import java.util.function.BooleanSupplier;

/**
 * Whether one connection reads from its socket: it stops while a request is in progress (one at a time,
 * Kafka's rule) and while its next frame waits for request memory; it reads again only when neither holds.
 * Confined to the connection's event loop.
 */
final class ReadGate {

    private final Channel channel;
    private final BooleanSupplier draining;
    private boolean requestInProgress;
    private boolean waitingForMemory;

    /** @param draining whether the server is shutting down: then nothing reopens the gate */
    ReadGate(Channel channel, BooleanSupplier draining) {
        this.channel = channel;
        this.draining = draining;
    }

    void requestInProgress(boolean value) {
        requestInProgress = value;
        apply();
    }

    void waitingForMemory(boolean value) {
        waitingForMemory = value;
        apply();
    }

    private void apply() {
        boolean read = !requestInProgress && !waitingForMemory;
        if (read && draining.getAsBoolean()) {
            return;   // shutdown stopped every connection's reading for good
        }
        if (channel.config().isAutoRead() != read) {
            channel.config().setAutoRead(read);
        }
    }
}
