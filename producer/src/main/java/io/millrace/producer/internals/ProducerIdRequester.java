package io.millrace.producer.internals;

import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.UnsupportedVersionException;
import io.millrace.common.protocol.message.InitProducerIdRequest;
import io.millrace.common.protocol.message.InitProducerIdResponse;
import io.millrace.common.utils.Time;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a broker for an idempotent producer's id (InitProducerId without a transactional id), one
 * request at a time, each time to the next broker the metadata knows. A broker that cannot answer now
 * (a lost connection, a timeout, an id block not yet allocated) is asked again after
 * {@code retry.backoff.ms}; a refusal that asking again cannot change (no such API, not authorized)
 * stops the producer, whose batches then fail with it, as Kafka's producer does.
 *
 * <p>Runs on the producer's I/O thread; answers are handed to it through {@code post}.
 */
final class ProducerIdRequester {

    private static final Logger log = LoggerFactory.getLogger(ProducerIdRequester.class);
    private static final Set<Errors> FATAL = Set.of(Errors.CLUSTER_AUTHORIZATION_FAILED,
        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Errors.UNSUPPORTED_VERSION, Errors.INVALID_REQUEST);

    private final NetworkClient client;
    private final Metadata metadata;
    private final IdempotenceManager idempotence;
    private final Consumer<Runnable> post;
    private final long retryBackoffMs;
    private final Time time;
    private boolean inFlight;
    private long nextAttemptMs;
    private int nextNode;

    /** @param post runs an answer's handling on the I/O thread, in a pass of the sender */
    ProducerIdRequester(NetworkClient client, Metadata metadata, IdempotenceManager idempotence, Consumer<Runnable> post,
                        long retryBackoffMs, Time time) {
        this.client = client;
        this.metadata = metadata;
        this.idempotence = idempotence;
        this.post = post;
        this.retryBackoffMs = retryBackoffMs;
        this.time = time;
    }

    /** Asks for a producer id when there is none, none is being asked for and the backoff has passed. */
    void maybeRequest(Cluster cluster, long nowMs) {
        if (idempotence.hasProducerId() || idempotence.fatalError() != null || inFlight || nowMs < nextAttemptMs) {
            return;
        }
        List<Node> nodes = cluster.nodes();
        if (nodes.isEmpty()) {
            metadata.requestUpdate();
            nextAttemptMs = nowMs + retryBackoffMs;
            return;
        }
        Node node = nodes.get(Math.floorMod(nextNode++, nodes.size()));
        inFlight = true;
        CompletableFuture<InitProducerIdResponse> answer;
        try {
            answer = client.send(node, new InitProducerIdRequest(null, Integer.MAX_VALUE, -1L, (short) -1));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((response, error) -> post.accept(() -> onAnswer(node, response, error)));
    }

    private void onAnswer(Node node, InitProducerIdResponse response, Throwable error) {
        inFlight = false;
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof UnsupportedVersionException) {
            idempotence.fail(new MillraceException("Broker " + node + " does not serve InitProducerId, which the "
                + "idempotent producer needs; set enable.idempotence=false to write to it", cause));
        } else if (cause instanceof NetworkException || cause instanceof TimeoutException) {
            log.debug("InitProducerId to {} failed, asking again in {} ms: {}", node, retryBackoffMs, cause.toString());
            retryLater();
        } else if (cause != null) {
            log.warn("InitProducerId to {} failed, asking again in {} ms", node, retryBackoffMs, cause);
            retryLater();
        } else if (response.error() == Errors.NONE) {
            idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(response.producerId(), response.producerEpoch()));
        } else if (FATAL.contains(response.error())) {
            idempotence.fail(response.error().exception("Broker " + node + " refused the idempotent producer a "
                + "producer id (" + response.error() + "): " + response.error().message()));
        } else {
            log.warn("Broker {} gave no producer id ({}), asking again in {} ms", node, response.error(), retryBackoffMs);
            retryLater();
        }
    }

    private void retryLater() {
        metadata.requestUpdate();
        nextAttemptMs = time.milliseconds() + retryBackoffMs;
    }
}
