package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.types.BufferPayload;
import io.millrace.common.protocol.types.RecordsPayload;
import io.millrace.common.protocol.types.SegmentWriter.SegmentSink;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * A client's produce request hands each partition's batches to the transport as they are, between
 * runs of protocol bytes, instead of copying them into the frame; the frame is the same either way.
 */
public class ProduceRequestSegmentsTest {

    @Test
    public void batchesAreHandedOverUncopiedAndTheFrameIsUnchanged() {
        for (short v = ApiKey.PRODUCE.minVersion(); v <= ApiKey.PRODUCE.maxVersion(); v++) {
            ByteBuffer first = KafkaSamples.buffer(KafkaSamples.records(0));
            ByteBuffer second = KafkaSamples.buffer(KafkaSamples.records(5));
            ProduceRequest request = new ProduceRequest(null, (short) 1, 30_000, List.of(
                new ProduceRequest.TopicData("events", List.of(new ProduceRequest.PartitionData(0, first),
                    new ProduceRequest.PartitionData(3, second)))));
            RequestHeader header = new RequestHeader(ApiKey.PRODUCE, v, 42, "producer-1");

            List<Object> segments = new ArrayList<>();
            Frames.writeRequest(header, request, new SegmentSink() {
                @Override
                public void protocolBytes(ByteBuffer bytes) {
                    segments.add(bytes);
                }

                @Override
                public void records(RecordsPayload records) {
                    segments.add(records);
                }
            });

            // flexible versions end with the partition's, topic's and request's tagged fields
            assertEquals("v" + v, ApiKey.PRODUCE.isFlexible(v) ? 5 : 4, segments.size());
            assertSame("v" + v, first.array(), ((BufferPayload) segments.get(1)).buffer().array());
            assertSame("v" + v, second.array(), ((BufferPayload) segments.get(3)).buffer().array());
            ByteBuffer frame = ByteBuffer.allocate(1 << 16);
            for (Object segment : segments) {
                frame.put(segment instanceof ByteBuffer b ? b.duplicate() : ((BufferPayload) segment).buffer().duplicate());
            }
            assertEquals("v" + v, Frames.request(header, request), frame.flip());
            assertTrue("the batches were not moved", first.position() == 0 && second.position() == 0);
        }
    }
}
