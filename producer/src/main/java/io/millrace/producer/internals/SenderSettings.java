package io.millrace.producer.internals;

/**
 * The settings the network thread works by, read once from the producer's configuration.
 *
 * @param idempotence    whether the producer numbers its batches so the broker appends each once ({@code enable.idempotence})
 * @param guaranteeOrder whether at most one batch per partition may be in flight
 *                       ({@code max.in.flight.requests.per.connection=1}), so retries keep the order
 */
public record SenderSettings(short acks, int maxInFlight, int maxRequestSize, int requestTimeoutMs, int retries,
                             long retryBackoffMs, long deliveryTimeoutMs, boolean idempotence) {

    public boolean guaranteeOrder() {
        return maxInFlight == 1;
    }
}
