package io.millrace.broker.network;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
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

    @Test
    public void aFrameThatOneReadHoldsWholeIsASliceOfThatRead() {
        ByteBuf read = Unpooled.wrappedBuffer(TestClient.frame(utf8("abc")));
        read.retain();
        try {
            assertTrue(channel.writeInbound(read));
            ByteBuf frame = channel.readInbound();
            assertSame("no copy", read, frame.unwrap());
            frame.release();
        } finally {
            read.release();
        }
    }

    @Test
    public void aLargeFrameSpanningReadsIsGatheredInOneDirectBufferOfItsSize() {
        int size = 64 * 1024;
        EmbeddedChannel large = new EmbeddedChannel(new FrameDecoder(1 << 20, metrics));
        byte[] bytes = TestClient.frame(pattern(size));
        try {
            for (int at = 0; at < bytes.length; at += 20_000) {
                int n = Math.min(20_000, bytes.length - at);
                assertEquals("complete after the last read only", at + n == bytes.length,
                    large.writeInbound(Unpooled.wrappedBuffer(bytes, at, n)));
            }
            ByteBuf frame = large.readInbound();
            try {
                assertTrue(frame.isDirect());
                assertEquals("a buffer of the frame's size, never grown", size, frame.capacity());
                byte[] payload = new byte[size];
                frame.readBytes(payload);
                assertArrayEquals(pattern(size), payload);
            } finally {
                frame.release();
            }
            assertEquals(bytes.length, metrics.incomingBytes());
        } finally {
            large.finishAndReleaseAll();
        }
    }

    @Test
    public void aFrameWaitingForRequestMemoryKeepsItsBytesAndIsDecodedOnceMemoryIsReleased() {
        RequestMemory memory = new RequestMemory(100);
        assertTrue(memory.reserveOrWait(90, () -> { }));
        EmbeddedChannel waiting = new EmbeddedChannel(new FrameDecoder(100, metrics, memory, null));
        try {
            assertFalse(waiting.writeInbound(Unpooled.wrappedBuffer(TestClient.frame(utf8("0123456789abcdef")))));
            assertFalse("reading stops while memory is short", waiting.config().isAutoRead());
            memory.release(90);
            waiting.runPendingTasks();
            ByteBuf frame = waiting.readInbound();
            try {
                assertEquals("0123456789abcdef", frame.toString(StandardCharsets.UTF_8));
            } finally {
                frame.release();
            }
            assertTrue(waiting.config().isAutoRead());
        } finally {
            waiting.finishAndReleaseAll();
        }
    }

    @Test
    public void bytesReadWhileAFrameWaitsForMemoryAreKeptBehindItInOrder() {
        RequestMemory memory = new RequestMemory(100);
        assertTrue(memory.reserveOrWait(90, () -> { }));
        EmbeddedChannel waiting = new EmbeddedChannel(new FrameDecoder(100, metrics, memory, null));
        try {
            byte[] first = TestClient.frame(utf8("0123456789abcdef"));
            byte[] second = TestClient.frame(utf8("ghij"));
            assertFalse(waiting.writeInbound(Unpooled.wrappedBuffer(first, 0, 10)));
            // reads already under way when reading stopped still arrive: the rest of one frame and the next
            assertFalse(waiting.writeInbound(Unpooled.wrappedBuffer(first, 10, first.length - 10)));
            assertFalse(waiting.writeInbound(Unpooled.wrappedBuffer(second)));
            assertNull("nothing is decoded while memory is short", waiting.readInbound());
            memory.release(90);
            waiting.runPendingTasks();
            for (String expected : List.of("0123456789abcdef", "ghij")) {
                ByteBuf frame = waiting.readInbound();
                try {
                    assertEquals(expected, frame.toString(StandardCharsets.UTF_8));
                } finally {
                    frame.release();
                }
            }
            assertNull(waiting.readInbound());
        } finally {
            waiting.finishAndReleaseAll();
        }
    }

    @Test
    public void aConnectionClosedInsideAFrameGivesItsBufferAndReservationBack() {
        RequestMemory memory = new RequestMemory(1 << 20);
        EmbeddedChannel closing = new EmbeddedChannel(new FrameDecoder(1 << 20, metrics, memory, null));
        byte[] bytes = TestClient.frame(pattern(50_000));
        assertFalse(closing.writeInbound(Unpooled.wrappedBuffer(bytes, 0, 30_000)));
        closing.close();
        assertTrue("the whole size fits again", memory.reserveOrWait(1 << 20, () -> { }));
        closing.finishAndReleaseAll();
    }

    private static byte[] pattern(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8));
        }
        return bytes;
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
