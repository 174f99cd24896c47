package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.types.RecordsPayload;
import io.millrace.common.protocol.types.SegmentWriter.SegmentSink;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.Test;

/** FetchResponse written as segments, with records handed over the way the broker sends file regions. */
public class FetchResponseZeroCopyTest {

    /** Stands in for the broker's file region: it has a size, and copying it is an error. */
    private record FileRegionStandIn(ByteBuffer bytes) implements RecordsPayload {
        @Override
        public int sizeInBytes() {
            return bytes.remaining();
        }

        @Override
        public void copyTo(ByteBuffer destination) {
            throw new AssertionError("a zero-copy payload was copied");
        }
    }

    /** Collects segments; {@link #frame()} sends them "over the wire" by concatenating. */
    private static final class Collector implements SegmentSink {
        final List<Object> segments = new ArrayList<>();

        @Override
        public void protocolBytes(ByteBuffer bytes) {
            assertTrue(bytes.hasRemaining());
            segments.add(bytes);
        }

        @Override
        public void records(RecordsPayload records) {
            segments.add(records);
        }

        ByteBuffer frame() {
            ByteBuffer frame = ByteBuffer.allocate(1 << 16);
            for (Object segment : segments) {
                frame.put(segment instanceof ByteBuffer b ? b.duplicate() : ((FileRegionStandIn) segment).bytes().duplicate());
            }
            return frame.flip();
        }
    }

    private static FileRegionStandIn region(long baseOffset) {
        return new FileRegionStandIn(KafkaSamples.buffer(KafkaSamples.records(baseOffset)));
    }

    private static FetchResponse response(RecordsPayload first, RecordsPayload second, RecordsPayload third) {
        return new FetchResponse(0, (short) 0, 0, List.of(
            new FetchResponse.FetchableTopicResponse(KafkaSamples.TOPIC, List.of(
                FetchResponse.PartitionData.of(0, Errors.NONE, 100, 100, 0, first),
                FetchResponse.PartitionData.of(1, Errors.OFFSET_OUT_OF_RANGE, 7, 7, 0, second))),
            new FetchResponse.FetchableTopicResponse("other", List.of(
                FetchResponse.PartitionData.of(4, Errors.NONE, 12, 12, 3, third)))));
    }

    @Test
    public void recordsAreHandedOverUncopiedBetweenRunsOfProtocolBytes() {
        for (short v = ApiKey.FETCH.minVersion(); v <= ApiKey.FETCH.maxVersion(); v++) {
            FileRegionStandIn a = region(0);
            FileRegionStandIn c = region(3);
            Collector collector = new Collector();
            response(a, null, c).writeFrame(17, v, collector);

            List<Object> s = collector.segments;
            // flexible versions end with a run of tagged-field sections after the last records
            assertEquals("v" + v, ApiKey.FETCH.isFlexible(v) ? 5 : 4, s.size());
            assertTrue(s.get(0) instanceof ByteBuffer);
            assertSame(a, s.get(1));
            assertTrue(s.get(2) instanceof ByteBuffer);
            assertSame(c, s.get(3));
            // the protocol runs are slices of one buffer
            assertSame(((ByteBuffer) s.get(0)).array(), ((ByteBuffer) s.get(2)).array());
        }
    }

    @Test
    public void trailingTaggedFieldsOfFlexibleVersionsFormTheLastRun() {
        Collector collector = new Collector();
        response(region(0), null, region(3)).writeFrame(17, (short) 12, collector);
        // partition, topic and response tagged-field sections, each empty
        Object last = collector.segments.get(collector.segments.size() - 1);
        assertEquals(ByteBuffer.wrap(new byte[] {0, 0, 0}), last);
    }

    /** Reads what the collector "sent" back with Kafka's classes. */
    private static FetchResponseData kafkaRead(ByteBuffer frame, short version) {
        assertEquals(frame.remaining() - 4, frame.getInt());
        assertEquals(17, ResponseHeader.parse(frame, ApiKeys.FETCH.responseHeaderVersion(version)).correlationId());
        FetchResponseData data = new FetchResponseData(new ByteBufferAccessor(frame), version);
        assertFalse(frame.hasRemaining());
        return data;
    }

    @Test
    public void kafkaReadsTheReassembledFrameAtEveryVersion() {
        for (short v = ApiKey.FETCH.minVersion(); v <= ApiKey.FETCH.maxVersion(); v++) {
            FileRegionStandIn a = region(0);
            FileRegionStandIn c = region(3);
            Collector collector = new Collector();
            response(a, region(9), c).writeFrame(17, v, collector);
            FetchResponseData kafka = kafkaRead(collector.frame(), v);

            FetchResponseData.PartitionData first = kafka.responses().get(0).partitions().get(0);
            assertEquals(a.bytes(), ((MemoryRecords) first.records()).buffer());
            assertEquals(100, first.highWatermark());
            FetchResponseData.PartitionData third = kafka.responses().get(1).partitions().get(0);
            assertEquals(c.bytes(), ((MemoryRecords) third.records()).buffer());
            assertEquals(v >= 5 ? 3 : -1, third.logStartOffset());
        }
    }

    @Test
    public void segmentsCarryTheSameBytesAsTheOneBufferFrame() {
        for (short v = ApiKey.FETCH.minVersion(); v <= ApiKey.FETCH.maxVersion(); v++) {
            Collector collector = new Collector();
            response(region(0), null, region(3)).writeFrame(17, v, collector);
            FetchResponse inMemory = response(RecordsPayload.of(region(0).bytes()), null, RecordsPayload.of(region(3).bytes()));
            assertEquals("v" + v, Frames.response(17, inMemory, v), collector.frame());
        }
    }

    @Test
    public void emptyRecordsProduceNoRecordsSegment() {
        Collector collector = new Collector();
        response(RecordsPayload.of(ByteBuffer.allocate(0)), null, null).writeFrame(1, (short) 12, collector);
        assertEquals(1, collector.segments.size());
    }
}
