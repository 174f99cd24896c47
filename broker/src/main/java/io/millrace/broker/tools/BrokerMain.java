package io.millrace.broker.tools;

import io.millrace.broker.server.Broker;
import io.millrace.broker.server.BrokerConfig;
import io.millrace.common.config.ConfigException;
import io.millrace.common.config.ServerArguments;
import io.millrace.common.utils.Time;
import java.io.IOException;
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
        return ServerArguments.parse(args);
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
