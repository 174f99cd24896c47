package io.millrace.broker.server;

import io.millrace.broker.network.Counter;
import io.millrace.broker.network.MetricGroup;
import io.millrace.broker.network.MetricsRegistry;
import io.millrace.broker.network.Timer;
import io.millrace.common.protocol.ApiKey;
import java.util.EnumMap;
import java.util.Map;

/**
 * Per-API request metrics, one JMX MBean per API as Kafka lays them out:
 * {@code io.millrace:type=request-metrics,request=Produce} with {@code request-total},
 * {@code total-time-ms-avg}/{@code -max} (from the frame being read to the response being handed to
 * the network layer, long-poll waits included), {@code request-queue-time-ms-avg}/{@code -max}
 * (from the frame being read to the handler of its API starting: the wait for an I/O thread plus
 * header parsing) and {@code closed-total} (requests answered by closing the connection).
 */
final class RequestMetrics {

    private final Map<ApiKey, Counter> requests = new EnumMap<>(ApiKey.class);
    private final Map<ApiKey, Counter> closed = new EnumMap<>(ApiKey.class);
    private final Map<ApiKey, Timer> totalTime = new EnumMap<>(ApiKey.class);
    private final Map<ApiKey, Timer> queueTime = new EnumMap<>(ApiKey.class);
    private final Counter rejected;

    RequestMetrics(MetricsRegistry registry) {
        for (ApiKey api : ApiKey.values()) {
            MetricGroup group = registry.group("request-metrics", Map.of("request", api.displayName()));
            requests.put(api, group.counter("request-total", "requests received"));
            closed.put(api, group.counter("closed-total", "requests answered by closing the connection"));
            totalTime.put(api, group.timer("total-time-ms", "the time from receiving a request to answering it"));
            queueTime.put(api, group.timer("request-queue-time-ms",
                "the time from receiving a request to its handler starting"));
        }
        rejected = registry.group("request-metrics", Map.of("request", "Unsupported"))
            .counter("request-total", "requests with an unknown api key, unsupported version or malformed header");
    }

    /** A request of {@code api} that waited {@code queuedNanos} between being read and its handler starting. */
    void received(ApiKey api, long queuedNanos) {
        requests.get(api).increment();
        queueTime.get(api).record(queuedNanos);
    }

    void completed(ApiKey api, long nanos) {
        totalTime.get(api).record(nanos);
    }

    void closed(ApiKey api) {
        closed.get(api).increment();
    }

    void rejected() {
        rejected.increment();
    }
}
