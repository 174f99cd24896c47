package io.millrace.producer.internals;

import io.millrace.common.client.Node;
import java.util.Set;

/**
 * What the accumulator has to send: the leaders with a batch ready, how long until the next batch
 * that is not ready yet will be (linger or retry backoff), and the topics whose leaders are
 * unknown, for which metadata must be refreshed.
 */
record ReadyCheck(Set<Node> readyNodes, long nextReadyCheckDelayMs, Set<String> unknownLeaderTopics) {
}
