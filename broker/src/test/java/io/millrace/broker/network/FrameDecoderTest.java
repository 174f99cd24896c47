package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;

public class FrameDecoderTest {

    private static final int MAX = 16;

    @Rule
    public final LeakRecorder leaks = new LeakRecorder();
    @Rule
    public final LogCapture log = new LogCapture(FrameDecoder.class);

    private final NetworkMetrics metrics = new NetworkMetrics(new MetricsRegistry(null, Map.of()).group("test"));
    private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(MAX, metrics));

    @After
    public void closeChannel() {
        channel.finishAndReleaseAll();
    }

    @Test
    public void deliversAFrameOnlyWhenItsLastByteArrives() {
        byte[] bytes = TestClient.frame(utf8("hello"));
        for (int i = 0; i < bytes.length - 1; i++) {
            assertFalse("byte " + i + " completed a frame", channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {bytes[i]})));
        }
        assertTrue(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {bytes[bytes.length - 1]})));
        assertEquals("hello", readFrame());
        assertNull(channel.readInbound());
        assertEquals(bytes.length, metrics.incomingBytes());
    }

    @Test
    public void decodesEveryFrameOfOneRead() {
        ByteBuf read = Unpooled.buffer();
        for (String s : List.of("a", "bb", "ccc")) {
            read.writeBytes(TestClient.frame(utf8(s)));
        }
        assertTrue(channel.writeInbound(read));
        assertEquals("a", readFrame());
        assertEquals("bb", readFrame());
        assertEquals("ccc", readFrame());
        assertNull(channel.readInbound());
    }

    @Test
    public void anEmptyPayloadIsAFrame() {
        assertTrue(channel.writeInbound(Unpooled.wrappedBuffer(TestClient.frame(new byte[0]))));
        assertEquals("", readFrame());
    }

    @Test(timeout = 5_000)
    public void splitFrameDoesNotLoop() {
        byte[] bytes = TestClient.frame(utf8("0123456789"));
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(bytes, 0, 7)));
        assertNull(channel.readInbound());
        assertTrue(channel.writeInbound(Unpooled.wrappedBuffer(bytes, 7, bytes.length - 7)));
        assertEquals("0123456789", readFrame());
        assertTrue(channel.isOpen());
    }

    @Test
    public void theLimitIsOnThePayloadNotCountingTheSizeField() {
        assertTrue(channel.writeInbound(Unpooled.wrappedBuffer(TestClient.frame(new byte[MAX]))));
        assertEquals(MAX, readFrame().length());
        assertTrue(channel.isOpen());
    }

    @Test
    public void shouldRejectOversizedFrameByClosingTheConnection() {
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(ByteBuffer.allocate(4).putInt(MAX + 1).flip())));
        assertFalse(channel.isOpen());
        assertNull(channel.readInbound());
        assertWarnedAbout("too large");
    }

    @Test
    public void shouldRejectNegativeLengthByClosingTheConnection() {
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, 0, 0, 0, 1, 2, 3})));
        assertFalse(channel.isOpen());
        assertNull(channel.readInbound());
        assertWarnedAbout("negative");
    }

    @Test
    public void aRejectedSizeIsSeenBeforeThePayloadArrives() {
        byte[] size = ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array();
        for (int i = 0; i < 3; i++) {
            assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {size[i]})));
            assertTrue(channel.isOpen());
        }
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {size[3]})));
        assertFalse(channel.isOpen());
    }

    private void assertWarnedAbout(String problem) {
        List<String> warnings = log.warnings();
        assertEquals(warnings.toString(), 1, warnings.size());
        String warning = warnings.get(0);
        assertTrue(warning, warning.startsWith("WARN") && warning.contains(problem)
            && warning.contains(String.valueOf(channel.remoteAddress())) && warning.contains("socket.request.max.bytes"));
    }

    private String readFrame() {
        ByteBuf frame = channel.readInbound();
        try {
            return frame.toString(StandardCharsets.UTF_8);
        } finally {
            frame.release();
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
