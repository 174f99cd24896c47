package io.millrace.bench.curves;

import io.millrace.bench.compare.BrokerProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One crash and restart: SIGKILL the broker's JVM, start it again on the same data and port, and time
 * from the new process's start until its port accepts a connection, until a record produced to
 * partition 0 ({@code acks=1}) has been fetched back, and until the broker has rejoined its cluster
 * ({@link BrokerProcess#awaitRejoined}), which for Millrace's broker comes later than serving. The
 * clients are made before the clock starts and retry every 10 ms (at most 100 ms apart), so the wait is
 * the broker's, not a client's back-off. The record's offset says whether the broker kept every record
 * acknowledged before the crash. Returns only once the broker has rejoined, so the next crash finds it
 * registered, as a crash in service would.
 */
final class RestartProbe {

    /** Times since the new process started, and the offset the probe record got. */
    record Timing(double listeningMs, double servingMs, double rejoinedMs, long offset) {
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(15);

    private RestartProbe() {
    }

    static Timing crashAndRestart(BrokerProcess broker, String bootstrap, String topic) throws Exception {
        broker.kill();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps(bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer());
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps(bootstrap),
                 new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            long start = System.nanoTime();
            broker.relaunch();
            CompletableFuture<Long> rejoined = CompletableFuture.supplyAsync(() -> awaitRejoined(broker));
            awaitListening(bootstrap, start);
            double listening = (System.nanoTime() - start) / 1e6;
            long offset = producer.send(new ProducerRecord<>(topic, 0, null, new byte[ProduceLoad.VALUE_BYTES]))
                .get(TIMEOUT.toMinutes(), TimeUnit.MINUTES).offset();
            fetch(consumer, new TopicPartition(topic, 0), offset, start);
            double serving = (System.nanoTime() - start) / 1e6;
            double rejoinedMs = (rejoined.get(TIMEOUT.toMinutes(), TimeUnit.MINUTES) - start) / 1e6;
            return new Timing(listening, serving, rejoinedMs, offset);
        }
    }

    /** When {@code broker} rejoined its cluster, by {@link System#nanoTime()}. */
    private static long awaitRejoined(BrokerProcess broker) {
        try {
            broker.awaitRejoined(TIMEOUT);
            return System.nanoTime();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void awaitListening(String bootstrap, long start) throws InterruptedException {
        int colon = bootstrap.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(bootstrap.substring(0, colon),
            Integer.parseInt(bootstrap.substring(colon + 1)));
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(address, 1_000);
                return;
            } catch (IOException notYet) {
                checkTimeout(start, "listening");
                Thread.sleep(5);
            }
        }
    }

    private static void fetch(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, long offset, long start) {
        consumer.assign(List.of(tp));
        consumer.seek(tp, offset);
        while (true) {
            checkTimeout(start, "fetching offset " + offset);
            try {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    if (r.offset() == offset) {
                        return;
                    }
                }
            } catch (OffsetOutOfRangeException notLoadedYet) {
                consumer.seek(tp, offset);
            }
        }
    }

    private static void checkTimeout(long start, String what) {
        if (System.nanoTime() - start > TIMEOUT.toNanos()) {
            throw new IllegalStateException("broker not " + what + " " + TIMEOUT + " after its restart");
        }
    }

    private static Map<String, Object> common(String bootstrap) {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(CommonClientConfigs.RECONNECT_BACKOFF_MS_CONFIG, 10);
        props.put(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, 100);
        props.put(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG, 10);
        props.put(CommonClientConfigs.RETRY_BACKOFF_MAX_MS_CONFIG, 100);
        return props;
    }

    private static Map<String, Object> producerProps(String bootstrap) {
        Map<String, Object> props = common(bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT.toMillis());
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        return props;
    }

    private static Map<String, Object> consumerProps(String bootstrap) {
        Map<String, Object> props = common(bootstrap);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        return props;
    }
}
