package io.millrace.broker.txn;

import io.millrace.broker.txn.TransactionStateLog.LoadedPartition;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeTransactionsResponse;
import io.millrace.common.protocol.message.ListTransactionsRequest;
import io.millrace.common.protocol.message.ListTransactionsResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The admin views of the transactions this broker coordinates: DescribeTransactions and
 * ListTransactions ({@code kafka-transactions describe} and {@code list}, AdminClient's
 * {@code describeTransactions} and {@code listTransactions}).
 */
public final class TransactionListings {

    private final TransactionCoordinator coordinator;

    public TransactionListings(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    /** Each id's transaction, or NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS or TRANSACTIONAL_ID_NOT_FOUND. */
    public DescribeTransactionsResponse describe(List<String> transactionalIds) {
        List<DescribeTransactionsResponse.TransactionState> states = new ArrayList<>(transactionalIds.size());
        for (String id : transactionalIds) {
            states.add(describe(id));
        }
        return new DescribeTransactionsResponse(0, states);
    }

    private DescribeTransactionsResponse.TransactionState describe(String id) {
        TransactionMetadata metadata;
        try {
            metadata = coordinator.stateLog().partitionOf(id).transactions().get(id);
        } catch (ApiException e) {
            return failed(id, e.error());
        }
        if (metadata == null) {
            return failed(id, Errors.TRANSACTIONAL_ID_NOT_FOUND);
        }
        TransactionLogRecord current;
        synchronized (metadata) {
            current = metadata.current();
        }
        Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
        for (TopicPartition tp : current.partitions()) {
            byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition());
        }
        List<DescribeTransactionsResponse.Topic> topics = byTopic.entrySet().stream()
            .map(e -> new DescribeTransactionsResponse.Topic(e.getKey(), e.getValue())).toList();
        return new DescribeTransactionsResponse.TransactionState(Errors.NONE.code(), id, current.state().displayName(),
            current.timeoutMs(), current.startMs(), current.producerId(), current.producerEpoch(), topics);
    }

    private static DescribeTransactionsResponse.TransactionState failed(String id, Errors error) {
        return new DescribeTransactionsResponse.TransactionState(error.code(), id, "", 0, -1L, -1L, (short) -1, List.of());
    }

    /**
     * The transactions of every partition of {@code __transaction_state} loaded here, filtered as
     * asked: by state name, producer id, open for at least the duration, id matching the pattern.
     * State names Kafka does not know are named back; a pattern that is not a regular expression gets
     * INVALID_REGULAR_EXPRESSION, as on Kafka.
     */
    public ListTransactionsResponse list(ListTransactionsRequest request) {
        String regex = request.transactionalIdPattern();
        Pattern pattern = null;
        if (regex != null && !regex.isEmpty()) {
            try {
                pattern = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                return new ListTransactionsResponse(0, Errors.INVALID_REGULAR_EXPRESSION.code(), List.of(), List.of());
            }
        }
        List<String> unknown = request.stateFilters().stream().filter(s -> TransactionState.forName(s) == null).toList();
        Set<String> states = request.stateFilters().stream().map(TransactionState::forName).filter(s -> s != null)
            .map(TransactionState::displayName).collect(Collectors.toSet());
        Set<Long> producerIds = Set.copyOf(request.producerIdFilters());
        long now = coordinator.nowMs();
        List<ListTransactionsResponse.TransactionState> found = new ArrayList<>();
        for (LoadedPartition loaded : coordinator.stateLog().loaded()) {
            for (TransactionMetadata metadata : loaded.transactions().values()) {
                TransactionLogRecord current;
                synchronized (metadata) {
                    current = metadata.current();
                }
                boolean matches = (request.stateFilters().isEmpty() || states.contains(current.state().displayName()))
                    && (producerIds.isEmpty() || producerIds.contains(current.producerId()))
                    && (request.durationFilter() < 0 || (current.startMs() >= 0
                        && now - current.startMs() >= request.durationFilter()))
                    && (pattern == null || pattern.matcher(current.transactionalId()).matches());
                if (matches) {
                    found.add(new ListTransactionsResponse.TransactionState(current.transactionalId(), current.producerId(),
                        current.state().displayName()));
                }
            }
        }
        return new ListTransactionsResponse(0, Errors.NONE.code(), unknown, found);
    }
}
