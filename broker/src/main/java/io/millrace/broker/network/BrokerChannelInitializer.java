package io.millrace.broker.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelInitializer;

/**
 * The pipeline of every accepted connection, in one readable list:
 *
 * <pre>
 *   frameDecoder     bytes → request frames (4-byte size, bounded by socket.request.max.bytes;
 *                    each frame's size reserved in queued.max.request.bytes before it is read)
 *   requestHandler   frame → request thread pool; response → socket; one request at a time
 * </pre>
 *
 * Both stages are stateful and created per connection: the decoder holds a partly received
 * frame, the request handler the connection's queue and mute state. Responses need no encoder
 * stage: a {@link ResponseSend} writes its size, buffers and file regions itself. TLS, when it
 * comes, goes first as {@code ssl}.
 *
 * <p>The initializer itself is {@code @Sharable}: it keeps only settings and the server's
 * shared, thread-safe parts, so one instance serves every connection of a listener.
 */
@Sharable
public final class BrokerChannelInitializer extends ChannelInitializer<Channel> {

    public static final String FRAME_DECODER = "frameDecoder";
    public static final String REQUEST_HANDLER = "requestHandler";

    private final ConnectionShared shared;
    private final String listenerName;
    private final int maxRequestBytes;

    BrokerChannelInitializer(ConnectionShared shared, String listenerName, int maxRequestBytes) {
        this.shared = shared;
        this.listenerName = listenerName;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    protected void initChannel(Channel channel) {
        if (!shared.limits.admit(channel)) {
            return;
        }
        shared.connections.add(channel);
        ReadGate gate = new ReadGate(channel, shared.inFlight::isDraining);
        channel.pipeline()
            .addLast(FRAME_DECODER, new FrameDecoder(maxRequestBytes, shared.metrics, shared.memory, gate))
            .addLast(REQUEST_HANDLER, new ConnectionHandler(shared, listenerName, gate));
    }
}
