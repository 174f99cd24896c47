package io.millrace.schemaregistry.client;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigException;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The settings of {@link SchemaRegistryClient}, under the {@code schema.registry.} prefix so that
 * they can sit in a producer's or consumer's configuration. Immutable and thread-safe.
 */
public final class SchemaRegistryClientConfig extends AbstractConfig {

    public static final String URL_CONFIG = "schema.registry.url";
    static final String URL_DOC = "The registry's base URLs, comma separated (http://host:8081). A request that fails "
        + "on a connection error or a 5xx answer is retried on the next URL.";

    public static final String REQUEST_TIMEOUT_MS_CONFIG = "schema.registry.request.timeout.ms";
    static final String REQUEST_TIMEOUT_MS_DOC = "How long one HTTP request waits for its answer before it counts as "
        + "failed (and is retried).";

    public static final String CONNECT_TIMEOUT_MS_CONFIG = "schema.registry.connect.timeout.ms";
    static final String CONNECT_TIMEOUT_MS_DOC = "How long opening a connection to the registry may take.";

    public static final String MAX_RETRIES_CONFIG = "schema.registry.max.retries";
    static final String MAX_RETRIES_DOC = "How many times a request is retried after a connection error or a 5xx "
        + "answer; 4xx answers are never retried. Registering is safe to retry: the same schema gets the same id.";

    public static final String RETRY_BACKOFF_MS_CONFIG = "schema.registry.retry.backoff.ms";
    static final String RETRY_BACKOFF_MS_DOC = "The wait before the first retry; it doubles on each further retry.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(URL_CONFIG, Type.LIST, ConfigDef.NO_DEFAULT, Importance.HIGH, URL_DOC)
        .define(REQUEST_TIMEOUT_MS_CONFIG, Type.INT, 30_000, Range.atLeast(1), Importance.MEDIUM, REQUEST_TIMEOUT_MS_DOC)
        .define(CONNECT_TIMEOUT_MS_CONFIG, Type.INT, 10_000, Range.atLeast(1), Importance.LOW, CONNECT_TIMEOUT_MS_DOC)
        .define(MAX_RETRIES_CONFIG, Type.INT, 3, Range.atLeast(0), Importance.MEDIUM, MAX_RETRIES_DOC)
        .define(RETRY_BACKOFF_MS_CONFIG, Type.INT, 100, Range.atLeast(0), Importance.LOW, RETRY_BACKOFF_MS_DOC);

    private final List<URI> urls;

    public SchemaRegistryClientConfig(Map<?, ?> props) {
        super(CONFIG, props);
        this.urls = getList(URL_CONFIG).stream().map(SchemaRegistryClientConfig::parseUrl).toList();
        if (urls.isEmpty()) {
            throw new ConfigException(URL_CONFIG, "", "at least one URL is needed");
        }
    }

    public List<URI> urls() {
        return urls;
    }

    public int requestTimeoutMs() {
        return getInt(REQUEST_TIMEOUT_MS_CONFIG);
    }

    public int connectTimeoutMs() {
        return getInt(CONNECT_TIMEOUT_MS_CONFIG);
    }

    public int maxRetries() {
        return getInt(MAX_RETRIES_CONFIG);
    }

    public int retryBackoffMs() {
        return getInt(RETRY_BACKOFF_MS_CONFIG);
    }

    private static URI parseUrl(String url) {
        try {
            URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(URL_CONFIG, url, "not a URL: " + e.getMessage());
        }
    }
}
