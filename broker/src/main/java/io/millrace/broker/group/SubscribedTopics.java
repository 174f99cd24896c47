package io.millrace.broker.group;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The topics of a member's subscription, read from its protocol metadata when the group's protocol
 * type is Kafka's "consumer". Every version of Kafka's ConsumerProtocolSubscription starts the same
 * way and is never flexible:
 * <pre>
 * version => INT16
 * topics  => INT32 count, then count × STRING (INT16 length, UTF-8 bytes)
 * ...     (user data, owned partitions, generation, rack: not needed here)
 * </pre>
 */
final class SubscribedTopics {

    static final String CONSUMER_PROTOCOL_TYPE = "consumer";

    private SubscribedTopics() {
    }

    /** The subscribed topics; empty when the metadata is not a consumer subscription. */
    static Set<String> parse(ByteBuffer metadata) {
        ByteBuffer buffer = metadata.duplicate();
        Set<String> topics = new HashSet<>();
        try {
            buffer.getShort();
            int count = buffer.getInt();
            for (int i = 0; i < count; i++) {
                byte[] name = new byte[buffer.getShort()];
                buffer.get(name);
                topics.add(new String(name, StandardCharsets.UTF_8));
            }
        } catch (BufferUnderflowException | NegativeArraySizeException malformed) {
            // what was read so far counts
        }
        return topics;
    }
}
