package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.LogConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import io.millrace.common.protocol.message.DescribeConfigsRequest.Resource;
import io.millrace.common.protocol.message.DescribeConfigsResponse;
import io.millrace.common.protocol.message.DescribeConfigsResponse.Entry;
import io.millrace.common.protocol.message.DescribeConfigsResponse.Result;
import io.millrace.common.protocol.message.DescribeConfigsResponse.Synonym;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Describes a topic's settings as Kafka's tools expect them (kafka-configs --describe, AdminClient's
 * describeConfigs, MirrorMaker 2's topic-config sync): every topic setting with the value in force,
 * whether the topic sets it (TOPIC_CONFIG) or the broker does (STATIC_BROKER_CONFIG, DEFAULT_CONFIG),
 * with the broker setting it overrides as a synonym when asked. The overrides come from the cluster
 * metadata, so any broker answers for any topic. A broker resource names this broker's id (Kafka's
 * AdminClient sends it to that broker) and is answered with every broker setting
 * ({@link BrokerConfigEntries}); the empty name, Kafka's cluster-wide dynamic defaults, has none,
 * since Millrace has no dynamic settings. Another broker's id and other resource types (broker
 * loggers) get INVALID_REQUEST with a message saying why.
 */
final class DescribeConfigsHandler implements ApiHandler {

    private final MetadataCache metadata;
    private final BrokerConfig config;
    private final LogConfig brokerLog;

    DescribeConfigsHandler(MetadataCache metadata, BrokerConfig config) {
        this.metadata = metadata;
        this.config = config;
        this.brokerLog = config.log();
    }

    @Override
    public void handle(Request request) {
        DescribeConfigsRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        List<Result> results = new ArrayList<>(body.resources().size());
        for (Resource resource : body.resources()) {
            results.add(describe(snapshot, resource, body.includeSynonyms(), body.includeDocumentation()));
        }
        request.respond(new DescribeConfigsResponse(0, results));
    }

    private Result describe(ClusterSnapshot snapshot, Resource resource, boolean synonyms, boolean documentation) {
        if (resource.type() == DescribeConfigsRequest.BROKER) {
            return describeBroker(resource, synonyms, documentation);
        }
        if (resource.type() != DescribeConfigsRequest.TOPIC) {
            return failed(resource, Errors.INVALID_REQUEST, "Millrace describes topic (resource type "
                + DescribeConfigsRequest.TOPIC + ") and broker (" + DescribeConfigsRequest.BROKER + ") configurations "
                + "only, not resource type " + resource.type());
        }
        if (!snapshot.hasTopic(resource.name())) {
            return failed(resource, Errors.UNKNOWN_TOPIC_OR_PARTITION, "Topic " + resource.name() + " does not exist");
        }
        Map<String, String> overrides = snapshot.topicConfig(resource.name());
        LogConfig topic;
        try {
            topic = brokerLog.withOverrides(overrides);
        } catch (ConfigException e) {
            return failed(resource, Errors.INVALID_CONFIG, "Topic " + resource.name() + " has a setting the broker cannot "
                + "read: " + e.getMessage());
        }
        List<Entry> entries = new ArrayList<>();
        for (ConfigDef.ConfigKey key : LogConfig.TOPIC_CONFIG.keys()) {
            if (resource.keys() == null || resource.keys().contains(key.name)) {
                entries.add(entry(key.name, topic, overrides, synonyms, documentation));
            }
        }
        return new Result(Errors.NONE.code(), null, resource.type(), resource.name(), entries);
    }

    private Result describeBroker(Resource resource, boolean synonyms, boolean documentation) {
        if (resource.name().isEmpty()) {
            return new Result(Errors.NONE.code(), null, resource.type(), resource.name(), List.of());
        }
        if (!resource.name().equals(String.valueOf(config.brokerId()))) {
            return failed(resource, Errors.INVALID_REQUEST, "Unexpected broker id, expected " + config.brokerId()
                + " or the empty string, but received " + resource.name());
        }
        return new Result(Errors.NONE.code(), null, resource.type(), resource.name(),
            BrokerConfigEntries.describe(config, resource.keys(), synonyms, documentation));
    }

    private Entry entry(String key, LogConfig topic, Map<String, String> overrides, boolean withSynonyms,
                        boolean withDocumentation) {
        String brokerKey = LogConfig.brokerSynonym(key);
        byte brokerSource = brokerLog.brokerSets(brokerKey) ? DescribeConfigsResponse.SOURCE_STATIC_BROKER_CONFIG
            : DescribeConfigsResponse.SOURCE_DEFAULT_CONFIG;
        boolean overridden = overrides.containsKey(key);
        List<Synonym> synonyms = new ArrayList<>(2);
        if (withSynonyms) {
            if (overridden) {
                synonyms.add(new Synonym(key, overrides.get(key), DescribeConfigsResponse.SOURCE_TOPIC_CONFIG));
            }
            synonyms.add(new Synonym(brokerKey, brokerLog.effectiveValue(key), brokerSource));
        }
        ConfigDef.ConfigKey definition = LogConfig.BROKER_CONFIG.key(brokerKey);
        return new Entry(key, topic.effectiveValue(key), false,
            overridden ? DescribeConfigsResponse.SOURCE_TOPIC_CONFIG : brokerSource, false, synonyms,
            kafkaType(LogConfig.TOPIC_CONFIG.key(key).type), withDocumentation && definition != null ? definition.documentation : null);
    }

    /** Kafka's config type for a Millrace setting's type. */
    static byte kafkaType(ConfigDef.Type type) {
        return switch (type) {
            case BOOLEAN -> DescribeConfigsResponse.TYPE_BOOLEAN;
            case STRING -> DescribeConfigsResponse.TYPE_STRING;
            case INT -> DescribeConfigsResponse.TYPE_INT;
            case LONG -> DescribeConfigsResponse.TYPE_LONG;
            case DOUBLE -> DescribeConfigsResponse.TYPE_DOUBLE;
            case LIST -> DescribeConfigsResponse.TYPE_LIST;
        };
    }

    private static Result failed(Resource resource, Errors error, String message) {
        return new Result(error.code(), message, resource.type(), resource.name(), List.of());
    }
}
