package io.millrace.broker.tools;

import io.millrace.broker.server.Broker;
import io.millrace.broker.server.BrokerConfig;
import io.millrace.common.config.ConfigException;
import io.millrace.common.utils.Time;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/millrace broker [--config FILE] [--override key=value ...]}: runs one broker until
 * SIGTERM or Ctrl-C; the shutdown hook then shuts it down cleanly (requests finished, logs flushed,
 * clean-shutdown marker written, ZooKeeper session closed).
 */
public final class BrokerMain {

    private static final String USAGE = "Usage: millrace broker [--config config/broker.properties] [--override key=value ...]";

    private BrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        Properties props;
        try {
            props = parse(args);
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
            return;
        }
        if (props == null) {
            System.out.println(USAGE);
            return;
        }
        BrokerConfig config;
        try {
            config = new BrokerConfig(props);
        } catch (ConfigException e) {
            fail(e.getMessage());
            return;
        }
        run(new Broker(config, Time.SYSTEM));
    }

    /** The properties from the file and overrides, in that order; null when help was asked for. */
    static Properties parse(String[] args) throws IOException {
        Properties props = new Properties();
        Properties overrides = new Properties();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--config" -> load(props, Path.of(required(args[i], value)));
                case "--override" -> override(overrides, required(args[i], value));
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("Unknown option " + args[i]);
            }
            i++;
        }
        props.putAll(overrides);
        return props;
    }

    private static void load(Properties props, Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file)) {
            props.load(in);
        }
    }

    private static void override(Properties overrides, String keyValue) {
        int eq = keyValue.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--override needs key=value, not " + keyValue);
        }
        overrides.setProperty(keyValue.substring(0, eq).trim(), keyValue.substring(eq + 1).trim());
    }

    private static String required(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static void run(Broker broker) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            broker.shutdown();
            stopped.countDown();
        }, "broker-shutdown"));
        broker.startup();
        System.out.println("Millrace broker " + broker.brokerId() + " ready on port " + broker.boundPort());
        stopped.await();
    }

    private static void fail(String message) {
        System.err.println("millrace broker: " + message);
        System.err.println(USAGE);
        System.exit(2);
    }
}
