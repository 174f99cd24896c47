package io.millrace.broker.server;

import io.millrace.common.config.ConfigException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.AlterConfigsRequest;
import io.millrace.common.protocol.message.AlterConfigsRequest.AlterableConfig;
import io.millrace.common.protocol.message.AlterConfigsRequest.Resource;
import io.millrace.common.protocol.message.AlterConfigsResponse;
import io.millrace.common.protocol.message.AlterConfigsResponse.Result;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The older AlterConfigs: the settings given become the topic's whole set of overrides, so an
 * override not named goes, and the broker's value applies again. Kafka's 4.x AdminClient no longer
 * sends it, but older tools and other clients do. Every value must be set (a null value gets
 * INVALID_CONFIG) and every name a topic setting; a name given twice gets INVALID_REQUEST. Broker
 * resources are refused as in {@link ConfigAlterations}.
 */
final class AlterConfigsHandler implements ApiHandler {

    private final ConfigAlterations alterations;

    AlterConfigsHandler(ConfigAlterations alterations) {
        this.alterations = alterations;
    }

    @Override
    public void handle(Request request) {
        AlterConfigsRequest body = request.body();
        ConfigAlterations.alterEach(body.resources(), r -> new ConfigAlterations.ResourceId(r.type(), r.name()),
                r -> alter(r, body.validateOnly()), AlterConfigsHandler::result)
            .thenAccept(results -> request.respond(new AlterConfigsResponse(0, results)));
    }

    private CompletableFuture<Void> alter(Resource resource, boolean validateOnly) {
        Map<String, String> configs;
        try {
            configs = configs(resource);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return switch (resource.type()) {
            case DescribeConfigsRequest.TOPIC -> alterations.alterTopic(resource.name(), current -> configs, validateOnly);
            case DescribeConfigsRequest.BROKER -> alterations.alterBroker(resource.name(), configs.keySet());
            default -> ConfigAlterations.unsupported(resource.type());
        };
    }

    private static Map<String, String> configs(Resource resource) {
        Map<String, String> configs = new HashMap<>();
        for (AlterableConfig config : resource.configs()) {
            if (configs.containsKey(config.name())) {
                throw new ApiException(Errors.INVALID_REQUEST, "Error due to duplicate config keys: " + config.name());
            }
            if (config.value() == null) {
                throw new ConfigException(config.name(), null, "AlterConfigs needs a value for every setting it names");
            }
            configs.put(config.name(), config.value());
        }
        return configs;
    }

    private static Result result(Resource resource, Throwable failure) {
        if (failure == null) {
            return new Result(Errors.NONE.code(), null, resource.type(), resource.name());
        }
        return new Result(ServerErrors.forException(failure).code(), ServerErrors.message(failure), resource.type(),
            resource.name());
    }
}
