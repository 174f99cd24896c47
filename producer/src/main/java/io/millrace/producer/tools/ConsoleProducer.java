package io.millrace.producer.tools;

import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code bin/millrace console-producer}: sends each line of stdin as a record, with Kafka's
 * console producer options:
 *
 * <pre>
 * --bootstrap-server HOST:PORT | --zookeeper HOST:PORT   where the cluster is
 * --topic NAME
 * --property parse.key=true --property key.separator=SEP  "key SEP value" lines (separator: a tab by default)
 * --producer-property KEY=VALUE ...                       any producer setting
 * </pre>
 *
 * At the end of input it flushes and closes; exits with status 1 and a message if any record
 * failed, e.g. when the topic does not exist (after {@code max.block.ms}).
 */
public final class ConsoleProducer {

    private ConsoleProducer() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args, System.in, System.err);
        } catch (IllegalArgumentException e) {
            System.err.println("console-producer: " + e.getMessage());
            System.err.println("usage: console-producer (--bootstrap-server HOST:PORT | --zookeeper HOST:PORT) --topic NAME "
                + "[--property parse.key=true] [--property key.separator=SEP] [--producer-property KEY=VALUE]...");
            status = 2;
        }
        System.exit(status);
    }

    /** Sends every line of {@code input}; returns the exit status, reporting failures on {@code err}. */
    public static int run(String[] args, InputStream input, PrintStream err) {
        ToolArguments options = ToolArguments.parse(args, null);
        String topic = options.require("topic");
        Map<String, String> properties = options.keyValues("property");
        boolean parseKey = Boolean.parseBoolean(properties.getOrDefault("parse.key", "false"));
        String separator = properties.getOrDefault("key.separator", "\t");
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (MillraceProducer<String, String> producer = new MillraceProducer<>(producerProps(options),
                new StringSerializer(), new StringSerializer());
             BufferedReader lines = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8))) {
            String line;
            while (failure.get() == null && (line = lines.readLine()) != null) {
                Future<?> sent = producer.send(record(topic, line, parseKey, separator), (m, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
                if (sent.isDone()) {
                    checkSent(sent, failure);
                }
            }
            producer.flush();
            producer.close(Duration.ofSeconds(30));
        } catch (IOException e) {
            failure.compareAndSet(null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        }
        if (failure.get() != null) {
            err.println("console-producer: could not send to " + topic + ": " + failure.get().getMessage());
            return 1;
        }
        return 0;
    }

    private static ProducerRecord<String, String> record(String topic, String line, boolean parseKey, String separator) {
        if (!parseKey) {
            return new ProducerRecord<>(topic, line);
        }
        int at = line.indexOf(separator);
        if (at < 0) {
            throw new IllegalArgumentException("No key separator '" + separator + "' in line: " + line);
        }
        return new ProducerRecord<>(topic, line.substring(0, at), line.substring(at + separator.length()));
    }

    private static void checkSent(Future<?> sent, AtomicReference<Exception> failure) throws InterruptedException {
        try {
            sent.get();
        } catch (ExecutionException e) {
            failure.compareAndSet(null, (Exception) e.getCause());
        }
    }

    static Map<String, Object> producerProps(ToolArguments options) {
        Map<String, Object> props = new HashMap<>(options.keyValues("producer-property"));
        props.putAll(options.keyValues("producer-props"));
        if (options.has("bootstrap-server")) {
            props.put("bootstrap.servers", options.require("bootstrap-server"));
        } else if (options.has("zookeeper")) {
            props.put("zookeeper.connect", options.require("zookeeper"));
        } else if (!props.containsKey("bootstrap.servers") && !props.containsKey("zookeeper.connect")) {
            throw new IllegalArgumentException("Give --bootstrap-server HOST:PORT or --zookeeper HOST:PORT");
        }
        return props;
    }
}
