package io.millrace.broker.group;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

/** A group's generation in Kafka's group metadata layout, written and read back, and Kafka's older versions read. */
public class GroupMetadataRecordTest {

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer buffer) {
        return StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
    }

    @Test
    public void aGenerationReadsBackAsItWasWritten() {
        GroupMetadataRecord written = new GroupMetadataRecord("consumer", 7, "range", "m-1", 1_700_000_000_000L, List.of(
            new GroupMetadataRecord.Member("m-1", null, "client-a", "/10.0.0.1", 300_000, 45_000, bytes("sub-a"), bytes("asg-a")),
            new GroupMetadataRecord.Member("m-2", "instance-b", "client-b", "/10.0.0.2", 60_000, 10_000, bytes(""),
                bytes("asg-b"))));
        byte[] value = written.value();
        assertEquals(GroupMetadataRecord.VALUE_VERSION, ByteBuffer.wrap(value).getShort());
        GroupMetadataRecord read = GroupMetadataRecord.decode(ByteBuffer.wrap(value));
        assertEquals("consumer", read.protocolType());
        assertEquals(7, read.generation());
        assertEquals("range", read.protocol());
        assertEquals("m-1", read.leader());
        assertEquals(1_700_000_000_000L, read.stateTimestampMs());
        assertEquals(2, read.members().size());
        GroupMetadataRecord.Member a = read.members().get(0);
        assertNull(a.groupInstanceId());
        assertEquals("client-a", a.clientId());
        assertEquals("/10.0.0.1", a.clientHost());
        assertEquals(300_000, a.rebalanceTimeoutMs());
        assertEquals(45_000, a.sessionTimeoutMs());
        assertEquals("sub-a", text(a.subscription()));
        assertEquals("asg-a", text(a.assignment()));
        GroupMetadataRecord.Member b = read.members().get(1);
        assertEquals("instance-b", b.groupInstanceId());
        assertEquals("", text(b.subscription()));
        assertEquals("asg-b", text(b.assignment()));
    }

    @Test
    public void anEmptyGroupsNullProtocolAndLeaderReadBackAsNull() {
        GroupMetadataRecord empty = new GroupMetadataRecord("consumer", 3, null, null, -1, List.of());
        GroupMetadataRecord read = GroupMetadataRecord.decode(ByteBuffer.wrap(empty.value()));
        assertNull(read.protocol());
        assertNull(read.leader());
        assertEquals(List.of(), read.members());
    }

    @Test
    public void theKeyIsVersionTwoWithTheGroupAndOnlyItNamesAGroup() {
        byte[] key = GroupMetadataRecord.key("readers");
        ByteBuffer expected = ByteBuffer.allocate(2 + 2 + 7);
        expected.putShort((short) 2).putShort((short) 7).put("readers".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(expected.array(), key);
        assertEquals("readers", GroupMetadataRecord.groupOf(ByteBuffer.wrap(key)));
        byte[] commitKey = OffsetsTopic.key("readers", new io.millrace.common.TopicPartition("t", 0));
        assertNull("an offset commit's key", GroupMetadataRecord.groupOf(ByteBuffer.wrap(commitKey)));
    }

    /** Version 0 has no rebalance timeout (the session timeout stands for it), no state time, no instance ids. */
    @Test
    public void versionZeroAndOneValuesOfOlderKafkaBrokersAreRead() {
        ByteBuffer v0 = ByteBuffer.allocate(256);
        v0.putShort((short) 0);
        putString(v0, "consumer");
        v0.putInt(4);
        putString(v0, "roundrobin");
        putString(v0, "m");
        v0.putInt(1);
        putString(v0, "m");
        putString(v0, "c");
        putString(v0, "/h");
        v0.putInt(30_000);
        v0.putInt(1).put((byte) 's');
        v0.putInt(1).put((byte) 'a');
        v0.flip();
        GroupMetadataRecord read = GroupMetadataRecord.decode(v0);
        assertEquals(4, read.generation());
        assertEquals(-1, read.stateTimestampMs());
        assertEquals(30_000, read.members().get(0).sessionTimeoutMs());
        assertEquals(30_000, read.members().get(0).rebalanceTimeoutMs());
        assertEquals("a", text(read.members().get(0).assignment()));

        ByteBuffer v1 = ByteBuffer.allocate(256);
        v1.putShort((short) 1);
        putString(v1, "consumer");
        v1.putInt(5);
        putString(v1, "range");
        putString(v1, "m");
        v1.putInt(1);
        putString(v1, "m");
        putString(v1, "c");
        putString(v1, "/h");
        v1.putInt(60_000);
        v1.putInt(10_000);
        v1.putInt(0);
        v1.putInt(0);
        v1.flip();
        read = GroupMetadataRecord.decode(v1);
        assertEquals(60_000, read.members().get(0).rebalanceTimeoutMs());
        assertEquals(10_000, read.members().get(0).sessionTimeoutMs());
    }

    @Test
    public void aTruncatedOrNewerValueIsRefusedWithAReason() {
        byte[] value = new GroupMetadataRecord("consumer", 1, "range", "m", 0, List.of(
            new GroupMetadataRecord.Member("m", null, "c", "/h", 1, 1, bytes("s"), bytes("a")))).value();
        ByteBuffer truncated = ByteBuffer.wrap(value, 0, value.length - 3);
        assertThrows(IllegalArgumentException.class, () -> GroupMetadataRecord.decode(truncated));
        ByteBuffer v4 = ByteBuffer.allocate(2).putShort((short) 4).flip();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> GroupMetadataRecord.decode(v4));
        assertEquals(true, refused.getMessage().contains("version 4"));
    }

    private static void putString(ByteBuffer out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.putShort((short) bytes.length).put(bytes);
    }
}
