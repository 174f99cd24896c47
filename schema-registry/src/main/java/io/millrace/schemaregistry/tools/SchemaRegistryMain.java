package io.millrace.schemaregistry.tools;

import io.millrace.common.config.ConfigException;
import io.millrace.common.config.ServerArguments;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/millrace schema-registry [--config FILE] [--override key=value ...]}: runs one
 * registry until SIGTERM or Ctrl-C. Settings come from the file, then the overrides; see
 * docs/schema-registry.md for every setting.
 */
public final class SchemaRegistryMain {

    private static final String USAGE = "Usage: millrace schema-registry [--config FILE] [--override key=value ...]";

    private SchemaRegistryMain() {
    }

    public static void main(String[] args) throws Exception {
        Properties props;
        SchemaRegistryConfig config;
        try {
            props = parse(args);
            if (props == null) {
                System.out.println(USAGE);
                return;
            }
            config = new SchemaRegistryConfig(props);
        } catch (IllegalArgumentException | ConfigException e) {
            fail(e.getMessage());
            return;
        }
        run(new SchemaRegistryServer(config));
    }

    /** The properties from the file and overrides, in that order; null when help was asked for. */
    static Properties parse(String[] args) throws IOException {
        return ServerArguments.parse(args);
    }

    private static void run(SchemaRegistryServer server) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "schema-registry-shutdown"));
        server.start();
        System.out.println("Millrace schema registry ready on " + String.join(", ", server.urls()));
        stopped.await();
    }

    private static void fail(String message) {
        System.err.println("millrace schema-registry: " + message);
        System.err.println(USAGE);
        System.exit(2);
    }
}
