package io.millrace.consumer.internals;

/**
 * Every znode path of a consumer group, under the {@code /millrace} root the brokers use.
 *
 * <pre>
 * /millrace/consumers/&lt;group&gt;
 *   ids/&lt;consumerId&gt;                    EPHEMERAL   each consumer, for itself (the consumer registry)
 *       {"version":1,"subscription":{"events":2},"pattern":"static","timestamp":1700000000000}
 *   owners/&lt;topic&gt;/&lt;partition&gt;          EPHEMERAL   the owning consumer thread (the ownership registry)
 *       group_host-1700000000000-1a2b3c4d-0
 *   offsets/&lt;topic&gt;/&lt;partition&gt;         persistent  the next offset to consume, as text (the offset registry)
 *       4711
 *   kafka-members                        EPHEMERAL   the broker coordinating the group's Kafka-protocol members, while
 *       {"version":1,"broker":0}                     it has any (read here: such a group is not joined)
 * </pre>
 */
public final class GroupPaths {

    public static final String CONSUMERS = "/millrace/consumers";

    private final String group;

    public GroupPaths(String group) {
        this.group = group;
    }

    public String group() {
        return CONSUMERS + "/" + group;
    }

    public String ids() {
        return group() + "/ids";
    }

    public String id(String consumerId) {
        return ids() + "/" + consumerId;
    }

    public String owners() {
        return group() + "/owners";
    }

    public String owner(String topic, int partition) {
        return owners() + "/" + topic + "/" + partition;
    }

    /** Present while the group has members of Kafka's protocol, written by their coordinator. */
    public String kafkaMembers() {
        return group() + "/kafka-members";
    }

    public String offsets() {
        return group() + "/offsets";
    }

    public String offsetsOf(String topic) {
        return offsets() + "/" + topic;
    }

    public String offset(String topic, int partition) {
        return offsetsOf(topic) + "/" + partition;
    }
}
