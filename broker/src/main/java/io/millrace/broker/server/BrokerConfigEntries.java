package io.millrace.broker.server;

import io.millrace.common.config.ConfigDef;
import io.millrace.common.protocol.message.DescribeConfigsResponse;
import io.millrace.common.protocol.message.DescribeConfigsResponse.Entry;
import io.millrace.common.protocol.message.DescribeConfigsResponse.Synonym;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A broker's settings as DescribeConfigs answers them for a broker resource: every setting
 * {@link BrokerConfig#ALL} declares, with the value in force, STATIC_BROKER_CONFIG when the broker's
 * properties set it and DEFAULT_CONFIG otherwise. Every one is read-only, since Millrace reads its
 * settings at startup only, and none is sensitive: Millrace has no passwords among its settings.
 */
final class BrokerConfigEntries {

    private BrokerConfigEntries() {
    }

    /** The entries for {@code keys} (every setting when null), in the order of the generated documentation. */
    static List<Entry> describe(BrokerConfig config, List<String> keys, boolean withSynonyms, boolean withDocumentation) {
        Map<String, Object> values = config.settings();
        List<Entry> entries = new ArrayList<>();
        for (ConfigDef def : BrokerConfig.ALL) {
            for (ConfigDef.ConfigKey key : def.keys()) {
                if (keys == null || keys.contains(key.name)) {
                    entries.add(entry(key, text(values.get(key.name)), config.isSet(key.name), withSynonyms,
                        withDocumentation));
                }
            }
        }
        return entries;
    }

    private static Entry entry(ConfigDef.ConfigKey key, String value, boolean set, boolean withSynonyms,
                               boolean withDocumentation) {
        byte source = set ? DescribeConfigsResponse.SOURCE_STATIC_BROKER_CONFIG
            : DescribeConfigsResponse.SOURCE_DEFAULT_CONFIG;
        List<Synonym> synonyms = withSynonyms ? List.of(new Synonym(key.name, value, source)) : List.of();
        return new Entry(key.name, value, true, source, false, synonyms, DescribeConfigsHandler.kafkaType(key.type),
            withDocumentation ? key.documentation : null);
    }

    /** A value as Kafka's tools print it: lists comma-separated, an unset value null. */
    private static String text(Object value) {
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return value == null ? null : String.valueOf(value);
    }
}
