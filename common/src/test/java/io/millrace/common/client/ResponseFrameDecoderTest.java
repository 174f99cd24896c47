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
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.Test;

/** Responses cut out of the byte stream however the socket's reads split them. */
public class ResponseFrameDecoderTest {

    private static final byte[][] FRAMES = {bytes(9, 1), bytes(0, 2), bytes(300, 3), bytes(4, 4)};
    private static final IntFunction<ResponseLease> NO_LEASES = id -> null;

    @Test
    public void framesComeOutWholeWhereverTheReadsEnd() {
        byte[] stream = stream(FRAMES);
        for (int chunk = 1; chunk <= stream.length; chunk++) {
            EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
            for (int at = 0; at < stream.length; at += chunk) {
                channel.writeInbound(Unpooled.wrappedBuffer(stream, at, Math.min(chunk, stream.length - at)));
            }
            assertEquals("reads of " + chunk + " bytes", List.of(FRAMES).size(), received(channel).size());
        }
    }

    @Test
    public void eachFrameIsAHeapBufferOfItsOwnHoldingExactlyItsBytes() {
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
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
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
        ByteBuf read = Unpooled.buffer().writeBytes(stream(FRAMES));
        channel.writeInbound(read);
        assertEquals(0, read.refCnt());
    }

    @Test
    public void aFrameOverTheLimitOrOfNegativeSizeFailsTheChannel() {
        EmbeddedChannel tooLong = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
        try {
            tooLong.writeInbound(Unpooled.buffer().writeInt(1021).writeZero(8));
            fail("expected TooLongFrameException");
        } catch (TooLongFrameException expected) {
            // the 4-byte size counts against the limit, as Netty's length-field decoder counts it
        }
        EmbeddedChannel negative = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
        try {
            negative.writeInbound(Unpooled.buffer().writeInt(-5));
            fail("expected CorruptedFrameException");
        } catch (CorruptedFrameException expected) {
            // a size no broker writes
        }
        EmbeddedChannel atTheLimit = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
        atTheLimit.writeInbound(Unpooled.buffer().writeInt(1020).writeZero(1020));
        assertEquals(1020, ((ByteBuffer) atTheLimit.readInbound()).remaining());
    }

    @Test
    public void aPartialFrameWaitsForTheRest() {
        EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1024, NO_LEASES));
        byte[] stream = stream(FRAMES[2]);
        assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(stream, 0, 100)));
        assertNull(channel.readInbound());
        channel.writeInbound(Unpooled.wrappedBuffer(stream, 100, stream.length - 100));
        assertEquals(300, ((ByteBuffer) channel.readInbound()).remaining());
    }

    @Test
    public void aFrameAnsweringALeasedRequestIsReadIntoTheLeasesBufferWhereverTheReadsEnd() {
        byte[][] frames = {withId(7, 40_000), withId(8, 100), bytes(2, 9)};
        byte[] stream = stream(frames);
        for (int chunk : new int[] {1, 3, 7, 1000, 16_384, stream.length}) {
            ResponseBufferPool pool = new ResponseBufferPool(4);
            Map<Integer, ResponseLease> leases = Map.of(7, new ResponseLease(pool));
            EmbeddedChannel channel = new EmbeddedChannel(new ResponseFrameDecoder(1 << 20, leases::get));
            for (int at = 0; at < stream.length; at += chunk) {
                channel.writeInbound(Unpooled.wrappedBuffer(stream, at, Math.min(chunk, stream.length - at)));
            }
            List<ByteBuffer> received = received(channel);
            assertEquals("reads of " + chunk + " bytes", 3, received.size());
            assertTrue("the leased request's frame is the pool's direct buffer", received.get(0).isDirect());
            assertFalse(received.get(1).isDirect());
            for (int i = 0; i < frames.length; i++) {
                assertArrayEquals("frame " + i + ", reads of " + chunk, frames[i], content(received.get(i)));
            }
            leases.get(7).release();
            assertEquals(1, pool.idleBuffers());
        }
    }

    @Test
    public void aSocketReadGoesStraightIntoALeasedFrameAndIsNotCopied() {
        byte[] frame = withId(7, 100_000);
        ResponseBufferPool pool = new ResponseBufferPool(4);
        ResponseLease lease = new ResponseLease(pool);
        ResponseFrameDecoder decoder = new ResponseFrameDecoder(1 << 20, id -> id == 7 ? lease : null);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        assertNull("no frame yet: read into any buffer", decoder.readTarget());
        byte[] stream = stream(frame);
        channel.writeInbound(Unpooled.wrappedBuffer(stream, 0, 20));
        int at = 20;
        int inPlaceReads = 0;
        for (ByteBuf target = decoder.readTarget(); target != null; target = decoder.readTarget()) {
            // what the socket read does: fill part of the buffer it was given, then pass it on
            int n = Math.min(30_000, target.writableBytes());
            target.writeBytes(stream, at, n);
            at += n;
            inPlaceReads++;
            channel.writeInbound(target);
        }
        assertEquals("the last 9,984 bytes are too few to be worth a read of their own", 3, inPlaceReads);
        channel.writeInbound(Unpooled.wrappedBuffer(stream, at, stream.length - at));
        ByteBuffer received = channel.readInbound();
        assertTrue(received.isDirect());
        assertArrayEquals(frame, content(received));
        assertNull("between frames", decoder.readTarget());
    }

    @Test
    public void aHeapFrameIsNeverAReadTarget() {
        ResponseFrameDecoder decoder = new ResponseFrameDecoder(1 << 20, NO_LEASES);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        channel.writeInbound(Unpooled.wrappedBuffer(stream(withId(7, 100_000)), 0, 20));
        assertNull(decoder.readTarget());
    }

    private static byte[] withId(int correlationId, int length) {
        byte[] frame = bytes(length, correlationId);
        ByteBuffer.wrap(frame).putInt(correlationId);
        return frame;
    }

    private static byte[] content(ByteBuffer frame) {
        byte[] content = new byte[frame.remaining()];
        frame.duplicate().get(content);
        return content;
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
