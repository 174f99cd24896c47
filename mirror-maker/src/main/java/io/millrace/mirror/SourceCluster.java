package io.millrace.mirror;

import java.util.Map;
import java.util.Objects;

/**
 * One live cluster the mirror reads: its name (for logs, metrics and audit) and its consumer settings
 * ({@code bootstrap.servers}, {@code zookeeper.connect}, {@code group.id}, ...), as given in one
 * {@code --consumer.config} file. Immutable.
 */
public record SourceCluster(String name, Map<String, Object> consumerSettings) {

    /** The setting that names the cluster in a consumer config file. */
    public static final String CLUSTER_NAME_CONFIG = "cluster.name";
    /** The live data centre's schema registry, whose schemas the mirror copies into the offline one. */
    public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";

    /** The live registry's URL, or null when none is configured. */
    public String schemaRegistryUrl() {
        Object url = consumerSettings.get(SCHEMA_REGISTRY_URL_CONFIG);
        return url == null || url.toString().isBlank() ? null : url.toString();
    }

    public SourceCluster {
        Objects.requireNonNull(name, "name");
        consumerSettings = Map.copyOf(consumerSettings);
    }
}
