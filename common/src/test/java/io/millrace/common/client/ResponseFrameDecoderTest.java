package io.millrace.common.client;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** Responses cut out of the byte stream however the socket's reads split them. */
public class ResponseFrameDecoderTest {

    private static final byte[][] FRAMES = {bytes(9, 1), bytes(0, 2), bytes(300, 3), bytes(4, 4)};

    @Test
    public void framesComeOutWholeWhereverTheReadsEnd() {
        byte[] stream = stream(FRAMES);
        for (int chunk = 1; chunk <= stream.length; chunk++) {
            EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024));
            for (int at = 0; at < stream.length; at += chunk) {
                channel.writeInbound(Unpooled.wrappedBuffer(stream, at, Math.min(chunk, stream.length - at)));
            }
            assertEquals("reads of " + chunk + " bytes", List.of(FRAMES).size(), received(channel).size());
        }
    }

    @Test
    public void eachFrameIsAHeapBufferOfItsOwnHoldingExactlyItsBytes() {
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024));
        channel.writeInbound(Unpooled.wrappedBuffer(stream(FRAMES)));
        List<ByteBuffer> frames = received(channel);
        for (int i = 0; i < FRAMES.length; i++) {
            ByteBuffer frame = frames.get(i);
            assertTrue(frame.hasArray());
            assertEquals(0, frame.position());
            byte[] content = new byte[frame.remaining()];
            frame.duplicate().get(content);
            assertArrayEquals(FRAMES[i], content);
        }
    }

    @Test
    public void theReadBuffersAreReleased() {
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024));
        ByteBuf read = Unpooled.buffer().writeBytes(stream(FRAMES));
        channel.writeInbound(read);
        assertEquals(0, read.refCnt());
    }

    @Test
    public void aFrameOverTheLimitOrOfNegativeSizeFailsTheChannel() {
        EmbeddedChannel tooLong = new EmbeddedChannel(new ResponseFrameDecoder(1024));
        try {
            tooLong.writeInbound(Unpooled.buffer().writeInt(1021).writeZero(8));
            fail("expected TooLongFrameException");
        } catch (TooLongFrameException expected) {
            // the 4-byte size counts against the limit, as Netty's length-field decoder counts it
        }
        EmbeddedChannel negative = new EmbeddedChannel(new ResponseFrameDecoder(1024));
        try {
            negative.writeInbound(Unpooled.buffer().writeInt(-5));
            fail("expected CorruptedFrameException");
        } catch (CorruptedFrameException expected) {
            // a size no broker writes
        }
        EmbeddedChannel atTheLimit = new EmbeddedChannel(new ResponseFrameDecoder(1024));
        atTheLimit.writeInbound(Unpooled.buffer().writeInt(1020).writeZero(1020));
        assertEquals(1020, ((ByteBuffer) atTheLimit.readInbound()).remaining());
    }

    @Test
    public void aPartialFrameWaitsForTheRest() {
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024));
        byte[] stream = stream(FRAMES[2]);
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(stream, 0, 100)));
        assertNull(channel.readInbound());
        channel.writeInbound(Unpooled.wrappedBuffer(stream, 100, stream.length - 100));
        assertEquals(300, ((ByteBuffer) channel.readInbound()).remaining());
    }

    private static List<ByteBuffer> received(EmbeddedChannel channel) {
        List<ByteBuffer> frames = new ArrayList<>();
        for (Object frame = channel.readInbound(); frame != null; frame = channel.readInbound()) {
            frames.add((ByteBuffer) frame);
        }
        return frames;
    }

    private static byte[] stream(byte[]... frames) {
        ByteBuf out = Unpooled.buffer();
        for (byte[] frame : frames) {
            out.writeInt(frame.length).writeBytes(frame);
        }
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    private static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed * 31 + i);
        }
        return bytes;
    }
}
