package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reads a range through {@link PartitionReader#readViews} and checks every record against what was sent. */
final class ViewChecks {

    private ViewChecks() {
    }

    /**
     * Reads {@code [start, end)} of {@code tp} as views and checks each record's offset and value
     * against {@code sent} (the values in offset order); returns how many lay in direct buffers.
     */
    static int readAndCheck(PartitionReader reader, TopicPartition tp, List<String> sent, int start, int end) {
        RecordViews views = reader.readViews(tp, start, end);
        int direct = 0;
        for (int offset = start; offset < end; offset++) {
            assertTrue("a view for offset " + offset, views.advance());
            RecordView view = views.current();
            assertEquals(offset, view.offset());
            byte[] value = new byte[view.valueLength()];
            view.buffer().get(view.valuePosition(), value);
            assertEquals("offset " + offset, sent.get(offset), new String(value, StandardCharsets.UTF_8));
            direct += view.buffer().isDirect() ? 1 : 0;
        }
        assertFalse(views.advance());
        return direct;
    }
}
