package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.MockTime;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class BrokerChannelInitializerTest {

    private final NetworkMetrics metrics = new NetworkMetrics(new MetricsRegistry(null, Map.of()).group("test"));
    private final ConnectionShared shared = new ConnectionShared(
        new RequestHandlerPool(1, 1, Handlers.ECHO, new MockTime(), metrics), Handlers.ECHO, new InFlightRequests(), metrics,
        new MockTime(), -1, new ConnectionLimits(Integer.MAX_VALUE, Integer.MAX_VALUE),
        new RequestMemory(-1));

    @Test
    public void thePipelineIsFrameDecoderThenRequestHandler() {
        EmbeddedChannel channel = new EmbeddedChannel(new BrokerChannelInitializer(shared, "PLAINTEXT", 100));
        List<String> names = channel.pipeline().names();
        assertEquals(List.of(BrokerChannelInitializer.FRAME_DECODER, BrokerChannelInitializer.REQUEST_HANDLER),
            names.subList(0, 2));
        assertTrue(channel.pipeline().get(BrokerChannelInitializer.FRAME_DECODER) instanceof FrameDecoder);
        assertTrue(channel.pipeline().get(BrokerChannelInitializer.REQUEST_HANDLER) instanceof ConnectionHandler);
        assertEquals(1, metrics.connectionCount());
        channel.finishAndReleaseAll();
        assertEquals(0, metrics.connectionCount());
    }

    @Test
    public void onlyTheInitializerIsShared() {
        assertTrue(new BrokerChannelInitializer(shared, "PLAINTEXT", 100).isSharable());
        assertFalse("holds a partial frame", new FrameDecoder(100, metrics).isSharable());
        assertFalse("holds the connection's requests", new ConnectionHandler(shared, "PLAINTEXT", null).isSharable());
    }
}
