package io.millrace.schemaregistry.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * The pipeline of one registry connection: {@code httpCodec} (HTTP/1.1 requests and
 * responses) → {@code aggregator} (one whole request, body at most {@code request.max.bytes})
 * → {@code api} (the REST API, on the I/O executor so that waiting for ZooKeeper never
 * blocks an event loop).
 */
final class RegistryChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final int maxBodyBytes;
    private final RegistryHttpHandler handler;
    private final EventExecutorGroup ioExecutor;

    RegistryChannelInitializer(int maxBodyBytes, RegistryHttpHandler handler, EventExecutorGroup ioExecutor) {
        this.maxBodyBytes = maxBodyBytes;
        this.handler = handler;
        this.ioExecutor = ioExecutor;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        pipeline.addLast("httpCodec", new HttpServerCodec());
        pipeline.addLast("aggregator", new BoundedBodyAggregator(maxBodyBytes, handler));
        pipeline.addLast(ioExecutor, "api", handler);
    }
}
