package io.millrace.broker.group;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A classic group's generation as kept in the offsets topic, in Kafka's layout so that Kafka's tools
 * read it: key version 2 {@code (group)}, value version 3 {@code (protocol type, generation,
 * protocol, leader, state time, members)}, each member with its ids, host, timeouts, its metadata
 * for the chosen protocol and its assignment. Written when a generation's assignments are complete;
 * a record without a value means the group has no generation to carry over. The broker that takes
 * the group's partition over reads the latest one, so the members keep their ids and generation.
 */
record GroupMetadataRecord(String protocolType, int generation, String protocol, String leader, long stateTimestampMs,
                           List<Member> members) {

    static final short KEY_VERSION = 2;
    static final short VALUE_VERSION = 3;

    /** One member of the generation. */
    record Member(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
                  int sessionTimeoutMs, ByteBuffer subscription, ByteBuffer assignment) {
    }

    /** The group's key; a record with it and no value is the group's tombstone. */
    static byte[] key(String group) {
        ByteBuffer out = ByteBuffer.allocate(2 + sizeOf(group));
        out.putShort(KEY_VERSION);
        putString(out, group);
        return out.array();
    }

    /** The group {@code key} names, or null when it is not a group metadata key. */
    static String groupOf(ByteBuffer key) {
        ByteBuffer in = key.duplicate();
        if (in.remaining() < 2 || in.getShort() != KEY_VERSION) {
            return null;
        }
        return getString(in);
    }

    byte[] value() {
        int size = 2 + sizeOf(protocolType) + 4 + sizeOf(protocol) + sizeOf(leader) + 8 + 4;
        for (Member m : members) {
            size += sizeOf(m.memberId) + sizeOf(m.groupInstanceId) + sizeOf(m.clientId) + sizeOf(m.clientHost) + 4 + 4
                + 4 + m.subscription.remaining() + 4 + m.assignment.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putShort(VALUE_VERSION);
        putString(out, protocolType);
        out.putInt(generation);
        putString(out, protocol);
        putString(out, leader);
        out.putLong(stateTimestampMs);
        out.putInt(members.size());
        for (Member m : members) {
            putString(out, m.memberId);
            putString(out, m.groupInstanceId);
            putString(out, m.clientId);
            putString(out, m.clientHost);
            out.putInt(m.rebalanceTimeoutMs);
            out.putInt(m.sessionTimeoutMs);
            putBytes(out, m.subscription);
            putBytes(out, m.assignment);
        }
        return out.array();
    }

    /**
     * Reads a value of versions 0 to 3 (version 4, flexible, is Kafka's newer encoding and is not
     * read here).
     *
     * @throws IllegalArgumentException a value that does not parse
     */
    static GroupMetadataRecord decode(ByteBuffer value) {
        ByteBuffer in = value.duplicate();
        try {
            short version = in.getShort();
            if (version < 0 || version > VALUE_VERSION) {
                throw new IllegalArgumentException("Group metadata value version " + version + " is not read here");
            }
            String protocolType = getString(in);
            int generation = in.getInt();
            String protocol = getString(in);
            String leader = getString(in);
            long timestamp = version >= 2 ? in.getLong() : -1;
            int count = in.getInt();
            List<Member> members = new ArrayList<>(Math.max(0, Math.min(count, 1024)));
            for (int i = 0; i < count; i++) {
                String memberId = getString(in);
                String instanceId = version >= 3 ? getString(in) : null;
                String clientId = getString(in);
                String clientHost = getString(in);
                int sessionOrRebalance = in.getInt();
                int rebalanceTimeout = sessionOrRebalance;
                int sessionTimeout = version >= 1 ? in.getInt() : sessionOrRebalance;
                members.add(new Member(memberId, instanceId, clientId, clientHost, rebalanceTimeout, sessionTimeout,
                    getBytes(in), getBytes(in)));
            }
            return new GroupMetadataRecord(protocolType, generation, protocol, leader, timestamp, members);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unreadable group metadata value: " + e, e);
        }
    }

    private static int sizeOf(String s) {
        return 2 + (s == null ? 0 : utf8(s).length);
    }

    private static void putString(ByteBuffer out, String s) {
        if (s == null) {
            out.putShort((short) -1);
            return;
        }
        byte[] bytes = utf8(s);
        out.putShort((short) bytes.length);
        out.put(bytes);
    }

    /** A Kafka STRING: INT16 length (-1 for null), then UTF-8 bytes. */
    static String getString(ByteBuffer in) {
        int length = in.getShort();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void putBytes(ByteBuffer out, ByteBuffer bytes) {
        out.putInt(bytes.remaining());
        out.put(bytes.duplicate());
    }

    private static ByteBuffer getBytes(ByteBuffer in) {
        int length = in.getInt();
        byte[] bytes = new byte[Math.max(length, 0)];
        in.get(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
