package io.millrace.broker.network;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import io.millrace.testkit.TestDirs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/** The frame a ResponseSend writes, and that every buffer in it is released whatever happens. */
public class ResponseSendTest {

    @Rule
    public final LeakRecorder leaks = new LeakRecorder();

    private Path dir;
    private FileChannel file;
    private byte[] fileBytes;

    @Before
    public void writeSegmentLikeFile() throws IOException {
        dir = TestDirs.create("response-send");
        fileBytes = new byte[300_000];
        new Random(7).nextBytes(fileBytes);
        Path path = dir.resolve("00000000000000000000.log");
        Files.write(path, fileBytes);
        file = FileChannel.open(path, StandardOpenOption.READ);
    }

    @After
    public void closeFile() throws IOException {
        file.close();
        TestDirs.delete(dir);
    }

    @Test
    public void theSizeFieldCoversBuffersAndFileRegions() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel();
        CapturingContext capture = new CapturingContext();
        channel.pipeline().addLast(capture);
        ResponseSend send = ResponseSend.builder().add(text("head")).addFile(file, 10, 1000)
            .add(ByteBuffer.wrap("mid".getBytes(StandardCharsets.UTF_8))).addFile(file, 5000, 20).build();
        assertEquals(4 + 1000 + 3 + 20, send.sizeInBytes());

        send.writeTo(capture.ctx, capture.ctx.newPromise());
        ByteBuf size = channel.readOutbound();
        assertEquals(send.sizeInBytes(), size.readInt());
        size.release();
        assertEquals("head", readText(channel.readOutbound()));
        assertRegion(channel.readOutbound(), 10, 1000);
        assertEquals("mid", readText(channel.readOutbound()));
        assertRegion(channel.readOutbound(), 5000, 20);
        assertNull(channel.readOutbound());
        assertFalse(channel.finish());
    }

    @Test
    public void aFileRegionLeavesTheLogsFileChannelOpen() throws IOException {
        FileRegion shared = new SharedFileRegion(file, 0, 10);
        shared.transferTo(Channels.newChannel(new ByteArrayOutputStream()), 0);
        shared.release();
        assertTrue("the log's channel must stay open", file.isOpen());
        // what a plain DefaultFileRegion would have done to the log's file:
        FileChannel other = FileChannel.open(dir.resolve("00000000000000000000.log"));
        new DefaultFileRegion(other, 0, 10).release();
        assertFalse(other.isOpen());
    }

    @Test
    public void failingASendReleasesEveryBufferAndTellsTheListener() {
        ByteBuf head = text("head");
        ByteBuf tail = text("tail");
        AtomicReference<Throwable> told = new AtomicReference<>();
        ResponseSend send = ResponseSend.builder().add(head).addFile(file, 0, 10).add(tail).whenComplete(told::set).build();
        ClosedChannelException cause = new ClosedChannelException();
        send.fail(cause);
        assertEquals(0, head.refCnt());
        assertEquals(0, tail.refCnt());
        assertSame(cause, told.get());
    }

    @Test
    public void discardingABuilderReleasesWhatItHeld() {
        ByteBuf head = text("head");
        ResponseSend.builder().add(head).addFile(file, 0, 10).discard();
        assertEquals(0, head.refCnt());
    }

    @Test
    public void aFrameOver2GiBIsRefusedAndItsBuffersReleased() {
        ByteBuf head = text("head");
        ByteBuf tooMuch = text("x");
        ResponseSend.Builder builder = ResponseSend.builder().add(head).addFile(file, 0, Integer.MAX_VALUE - 4);
        assertThrows(IllegalArgumentException.class, () -> builder.add(tooMuch));
        assertEquals(0, head.refCnt());
        assertEquals(0, tooMuch.refCnt());
    }

    @Test
    public void emptyPartsAreLeftOut() {
        ByteBuf empty = Unpooled.directBuffer(4);
        ResponseSend send = ResponseSend.builder().add(empty).addFile(file, 0, 0).build();
        assertEquals(0, send.sizeInBytes());
        assertEquals(0, empty.refCnt());
        send.fail(new ClosedChannelException());
    }

    @Test
    public void deliversFileRegionBytesExactlyOverEpoll() throws Exception {
        assumeTrue("epoll is not available here", Transport.EPOLL.isAvailable());
        deliversFileRegionBytesExactly(Transport.EPOLL);
    }

    @Test
    public void deliversFileRegionBytesExactlyOverNio() throws Exception {
        deliversFileRegionBytesExactly(Transport.NIO);
    }

    /** A Fetch-shaped frame: protocol bytes, a region, more protocol bytes, another region, a tail. */
    private void deliversFileRegionBytesExactly(Transport transport) throws Exception {
        CompletableFuture<Throwable> written = new CompletableFuture<>();
        RequestHandler fetch = (context, payload) -> context.sendResponse(ResponseSend.builder()
            .add(context.alloc().directBuffer().writeBytes(bytes("head")))
            .addFile(file, 1_000, 200_000)
            .add(ByteBuffer.wrap(bytes("mid")))
            .addFile(file, 250_000, 50_000)
            .add(context.alloc().heapBuffer().writeBytes(bytes("tail")))
            .whenComplete(written::complete)
            .build());
        ServerFixture servers = new ServerFixture();
        try {
            TestClient client = servers.connect(servers.start(fetch, Map.of(), transport));
            client.send("fetch");
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.writeBytes(bytes("head"));
            expected.write(fileBytes, 1_000, 200_000);
            expected.writeBytes(bytes("mid"));
            expected.write(fileBytes, 250_000, 50_000);
            expected.writeBytes(bytes("tail"));
            assertArrayEquals(expected.toByteArray(), client.receive());
            assertNull(written.get(10, TimeUnit.SECONDS));
            assertTrue(file.isOpen());
        } finally {
            servers.after();
        }
    }

    private static void assertRegion(Object message, long position, long count) {
        assertTrue(message.getClass().getName(), message instanceof DefaultFileRegion);
        FileRegion region = (FileRegion) message;
        assertEquals(position, region.position());
        assertEquals(count, region.count());
        region.release();
    }

    private static ByteBuf text(String s) {
        return Unpooled.directBuffer().writeBytes(bytes(s));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String readText(ByteBuf buf) {
        try {
            return buf.toString(StandardCharsets.UTF_8);
        } finally {
            buf.release();
        }
    }

    /** Exposes a context of an embedded channel, to write on. */
    private static final class CapturingContext extends ChannelInboundHandlerAdapter {
        ChannelHandlerContext ctx;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }
    }
}
