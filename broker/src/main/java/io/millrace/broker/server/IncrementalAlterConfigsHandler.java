package io.millrace.broker.server;

import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.AlterableConfig;
import io.millrace.common.protocol.message.IncrementalAlterConfigsRequest.Resource;
import io.millrace.common.protocol.message.IncrementalAlterConfigsResponse;
import io.millrace.common.protocol.message.IncrementalAlterConfigsResponse.Result;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * Changes some settings of topics (and refuses to change a broker's; see {@link ConfigAlterations}),
 * as kafka-configs --alter and AdminClient's incrementalAlterConfigs do: SET a value, DELETE an
 * override (back to the broker's value), APPEND to or SUBTRACT from a list setting. Millrace's topic
 * settings are all scalars, so APPEND and SUBTRACT get INVALID_CONFIG, as Kafka answers them for a
 * scalar. The operations apply in order to the topic's current overrides; the result must be valid
 * as a whole. A name given twice in one resource gets INVALID_REQUEST, as Kafka. The answer is sent
 * once every resource has its outcome. Deleting one of Kafka's replication throttles succeeds and
 * changes nothing: Millrace has none ({@link ConfigAlterations#REPLICATION_THROTTLES}).
 */
final class IncrementalAlterConfigsHandler implements ApiHandler {

    private final ConfigAlterations alterations;

    IncrementalAlterConfigsHandler(ConfigAlterations alterations) {
        this.alterations = alterations;
    }

    @Override
    public void handle(Request request) {
        IncrementalAlterConfigsRequest body = request.body();
        ConfigAlterations.alterEach(body.resources(), r -> new ConfigAlterations.ResourceId(r.type(), r.name()),
                r -> alter(r, body.validateOnly()), IncrementalAlterConfigsHandler::result)
            .thenAccept(results -> request.respond(new IncrementalAlterConfigsResponse(0, results)));
    }

    private CompletableFuture<Void> alter(Resource resource, boolean validateOnly) {
        Set<String> named = new HashSet<>();
        for (AlterableConfig config : resource.configs()) {
            if (!named.add(config.name())) {
                return CompletableFuture.failedFuture(new ApiException(Errors.INVALID_REQUEST,
                    "Error due to duplicate config keys: " + config.name()));
            }
        }
        Set<String> names = new HashSet<>();
        List<AlterableConfig> configs = resource.configs().stream().filter(c -> !deletesThrottle(c)).toList();
        configs.stream().map(AlterableConfig::name).forEach(names::add);
        return switch (resource.type()) {
            case DescribeConfigsRequest.TOPIC -> alterations.alterTopic(resource.name(), operations(configs), validateOnly);
            case DescribeConfigsRequest.BROKER -> alterations.alterBroker(resource.name(), names);
            default -> ConfigAlterations.unsupported(resource.type());
        };
    }

    /** A DELETE of a replication throttle: there is never one to delete ({@link ConfigAlterations#REPLICATION_THROTTLES}). */
    private static boolean deletesThrottle(AlterableConfig config) {
        return config.operation() == IncrementalAlterConfigsRequest.DELETE
            && ConfigAlterations.REPLICATION_THROTTLES.contains(config.name());
    }

    /** The operations as a change of the current overrides, checking names and operations each time it runs. */
    private static UnaryOperator<Map<String, String>> operations(List<AlterableConfig> configs) {
        return current -> {
            Map<String, String> next = new HashMap<>(current);
            for (AlterableConfig config : configs) {
                apply(next, config);
            }
            return next;
        };
    }

    private static void apply(Map<String, String> overrides, AlterableConfig config) {
        ConfigDef.ConfigKey key = ConfigAlterations.topicKey(config.name());
        switch (config.operation()) {
            case IncrementalAlterConfigsRequest.SET -> {
                if (config.value() == null) {
                    throw new ConfigException(config.name(), null, "SET needs a value; DELETE removes an override");
                }
                overrides.put(config.name(), config.value());
            }
            case IncrementalAlterConfigsRequest.DELETE -> overrides.remove(config.name());
            case IncrementalAlterConfigsRequest.APPEND, IncrementalAlterConfigsRequest.SUBTRACT ->
                changeList(overrides, key, config);
            default -> throw new ApiException(Errors.INVALID_REQUEST, "Unknown config operation " + config.operation()
                + " for " + config.name());
        }
    }

    /** APPEND and SUBTRACT, for list settings only, on the override (an unset list counts as empty). */
    private static void changeList(Map<String, String> overrides, ConfigDef.ConfigKey key, AlterableConfig config) {
        boolean append = config.operation() == IncrementalAlterConfigsRequest.APPEND;
        if (key.type != ConfigDef.Type.LIST) {
            throw new ConfigException("Config value " + (append ? "append" : "subtract") + " is not allowed for config "
                + "key: " + key.name + ", which is not a list");
        }
        Set<String> items = new LinkedHashSet<>(split(overrides.get(key.name)));
        List<String> given = split(config.value());
        if (append) {
            items.addAll(given);
        } else {
            given.forEach(items::remove);
        }
        overrides.put(key.name, String.join(",", items));
    }

    private static List<String> split(String list) {
        return list == null || list.isBlank() ? List.of() : Arrays.stream(list.split("\\s*,\\s*")).toList();
    }

    private static Result result(Resource resource, Throwable failure) {
        if (failure == null) {
            return new Result(Errors.NONE.code(), null, resource.type(), resource.name());
        }
        return new Result(ServerErrors.forException(failure).code(), ServerErrors.message(failure), resource.type(),
            resource.name());
    }
}
