package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeGroupsRequest;
import io.millrace.common.protocol.message.DescribeGroupsResponse;
import io.millrace.common.protocol.message.FindCoordinatorRequest;
import io.millrace.common.protocol.message.FindCoordinatorResponse;
import io.millrace.consumer.KafkaGroupDescription;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Asks a group's coordinator about a consumer group of Kafka's protocol: FindCoordinator to any
 * broker, then DescribeGroups to the coordinator; each member's assignment is read from Kafka's
 * ConsumerProtocolAssignment. Blocking; thread-safe.
 */
public final class KafkaGroupClient {

    private final NetworkClient client;
    private final Metadata metadata;
    private final int timeoutMs;

    public KafkaGroupClient(NetworkClient client, Metadata metadata, int timeoutMs) {
        this.client = client;
        this.metadata = metadata;
        this.timeoutMs = timeoutMs;
    }

    /** The group as its coordinator describes it. */
    public KafkaGroupDescription describe(String group) {
        Node coordinator = coordinator(group);
        DescribeGroupsResponse response = await(client.send(coordinator, new DescribeGroupsRequest(List.of(group), false)));
        DescribeGroupsResponse.Group g = response.groups().get(0);
        if (g.error() != Errors.NONE) {
            throw new MillraceException("Broker " + coordinator.id() + " cannot describe group " + group + ": "
                + g.error() + (g.errorMessage() == null ? "" : " (" + g.errorMessage() + ")"));
        }
        List<KafkaGroupDescription.Member> members = new ArrayList<>();
        for (DescribeGroupsResponse.Member m : g.members()) {
            List<TopicPartition> assigned = "consumer".equals(g.protocolType()) ? assignment(m.memberAssignment()) : List.of();
            members.add(new KafkaGroupDescription.Member(m.memberId(), m.clientId(), m.clientHost(), assigned));
        }
        return new KafkaGroupDescription(group, g.groupState(), g.protocolData(), coordinator.id(), members);
    }

    private Node coordinator(String group) {
        List<Node> nodes = metadata.cluster().nodes();
        if (nodes.isEmpty()) {
            nodes = await(metadata.requestUpdate()).nodes();
        }
        if (nodes.isEmpty()) {
            throw new MillraceException("No broker known to ask for the coordinator of group " + group);
        }
        // both forms: the single key of versions 0-3 and the batch of 4+, whichever version is agreed
        FindCoordinatorRequest request = new FindCoordinatorRequest(group, FindCoordinatorRequest.GROUP, List.of(group));
        FindCoordinatorResponse found = await(client.send(nodes.get(0), request));
        if (!found.coordinators().isEmpty()) {
            FindCoordinatorResponse.Coordinator c = found.coordinators().get(0);
            check(c.error(), group);
            return new Node(c.nodeId(), c.host(), c.port());
        }
        check(found.error(), group);
        return new Node(found.nodeId(), found.host(), found.port());
    }

    private static void check(Errors error, String group) {
        if (error != Errors.NONE) {
            throw new MillraceException("No coordinator for group " + group + ": " + error);
        }
    }

    private <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MillraceException("Interrupted", e);
        } catch (ExecutionException e) {
            throw new MillraceException(e.getCause().getMessage(), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new io.millrace.common.errors.TimeoutException("No answer within " + timeoutMs + " ms");
        }
    }

    /**
     * The partitions of Kafka's ConsumerProtocolAssignment, never flexible:
     * {@code version INT16, [topic STRING (INT16 length), [partition INT32] (INT32 count)] (INT32 count), user_data BYTES}.
     * Empty when the bytes are not such an assignment.
     */
    static List<TopicPartition> assignment(ByteBuffer bytes) {
        ByteBuffer buffer = bytes.duplicate();
        List<TopicPartition> partitions = new ArrayList<>();
        try {
            buffer.getShort();
            int topics = buffer.getInt();
            for (int t = 0; t < topics; t++) {
                byte[] name = new byte[buffer.getShort()];
                buffer.get(name);
                String topic = new String(name, StandardCharsets.UTF_8);
                int count = buffer.getInt();
                for (int p = 0; p < count; p++) {
                    partitions.add(new TopicPartition(topic, buffer.getInt()));
                }
            }
        } catch (BufferUnderflowException | NegativeArraySizeException malformed) {
            // what was read so far
        }
        return partitions;
    }
}
