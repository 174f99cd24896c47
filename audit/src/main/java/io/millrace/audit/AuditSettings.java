package io.millrace.audit;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of a counting client's {@link AuditPublisher}, taken from the client's own: its
 * {@code audit.*} settings, and the cluster it talks to ({@code bootstrap.servers}, or
 * {@code zookeeper.connect}) and {@code schema.registry.url}, so that the counts go to the audit topic
 * of the cluster the client uses without being configured twice. Kafka's clients hand lists over as
 * lists; they become the comma-separated text Millrace's settings take.
 */
public final class AuditSettings {

    private static final List<String> SHARED = List.of("bootstrap.servers", "zookeeper.connect", "schema.registry.url");

    private AuditSettings() {
    }

    /**
     * The publisher settings for a client configured with {@code client}; {@code audit.tier} and
     * {@code audit.application} default to {@code tier} and {@code application}.
     */
    public static Map<String, Object> of(Map<String, ?> client, String tier, String application) {
        Map<String, Object> settings = new HashMap<>();
        client.forEach((key, value) -> {
            if (key.startsWith("audit.") && value != null) {
                settings.put(key, value);
            }
        });
        for (String key : SHARED) {
            String value = text(client.get(key));
            if (!value.isBlank()) {
                settings.put(key, value);
            }
        }
        settings.putIfAbsent(AuditConfig.AUDIT_TIER_CONFIG, tier);
        settings.putIfAbsent(AuditConfig.AUDIT_APPLICATION_CONFIG, application);
        return settings;
    }

    /** A setting as text: a list joined with commas, nothing as the empty string. */
    public static String text(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Collection<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return String.valueOf(value);
    }
}
