package io.millrace.broker.group;

import io.millrace.broker.server.ApiHandler;
import io.millrace.broker.server.Request;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ListGroupsRequest;
import io.millrace.common.protocol.message.ListGroupsResponse;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the groups this broker coordinates (see {@link GroupListing}), filtered by state (version
 * 4+) and type (version 5+: "classic", or "consumer" for the consumer group protocol), both matched without regard to case as
 * Kafka does. Groups known only from ZooKeeper are read off the request thread, once this broker
 * has loaded its partitions of the offsets topic (the first listing creates the topic).
 */
public final class ListGroupsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ListGroupsHandler.class);

    static final String CLASSIC = "classic";
    static final String CONSUMER = "consumer";

    private final GroupCoordinator coordinator;
    private final GroupListing listing;

    public ListGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
        this.listing = new GroupListing(coordinator);
    }

    @Override
    public void handle(Request request) {
        ListGroupsRequest body = request.body();
        Set<String> states = lowerCase(body.statesFilter());
        Set<String> types = lowerCase(body.typesFilter());
        coordinator.awaitOffsetsTopicLoaded(FindCoordinatorHandler.WAIT_MS)
            .thenCompose(loaded -> coordinator.onRegistryThread(listing::all)).whenComplete((all, failure) -> {
            if (failure != null) {
                LOG.warn("Could not list the groups", failure);
                request.respond(new ListGroupsResponse(0, Errors.COORDINATOR_NOT_AVAILABLE.code(), List.of()));
                return;
            }
            List<ListGroupsResponse.Group> groups = all.values().stream()
                .filter(g -> states.isEmpty() || states.contains(g.state().kafkaName().toLowerCase(Locale.ROOT)))
                .filter(g -> types.isEmpty() || types.contains(g.type()))
                .map(g -> new ListGroupsResponse.Group(g.groupId(), g.protocolType(), g.state().kafkaName(), g.type()))
                .toList();
            request.respond(new ListGroupsResponse(0, Errors.NONE.code(), groups));
        });
    }

    private static Set<String> lowerCase(List<String> values) {
        return values.stream().map(v -> v.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    }
}
