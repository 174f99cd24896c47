package io.millrace.bench.curves;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The produce load of the throughput curves: {@code producers} {@code KafkaProducer}s, each on a thread
 * of its own, writing {@value #VALUE_BYTES}-byte records (no key, no compression, {@code acks=1},
 * idempotence off, {@code linger.ms=5}, the default 16 KiB batches) to one topic, producer <i>p</i>
 * sending its <i>j</i>-th record to partition (<i>p</i> + <i>j</i>) mod <i>partitions</i>, so that
 * every partition gets the same share. The producers are made and connected before the clock starts;
 * timed from the release of all of them until the last one's {@code flush()} returns with every record
 * acknowledged.
 */
final class ProduceLoad {

    static final int VALUE_BYTES = 100;
    private static final long TIMEOUT_MINUTES = 10;

    private ProduceLoad() {
    }

    /** Records a second over all producers; throws if any record was not acknowledged. */
    static double run(String bootstrap, String topic, int partitions, int producers, long records) throws Exception {
        List<KafkaProducer<byte[], byte[]>> clients = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(producers);
        try {
            for (int p = 0; p < producers; p++) {
                KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "curves-" + p);
                producer.partitionsFor(topic); // metadata and the first connection, before the clock
                clients.add(producer);
            }
            return timed(threads, clients, topic, partitions, records);
        } finally {
            threads.shutdownNow();
            clients.forEach(c -> c.close(java.time.Duration.ofSeconds(10)));
        }
    }

    private static double timed(ExecutorService threads, List<KafkaProducer<byte[], byte[]>> clients, String topic,
                                int partitions, long records) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Future<?>> done = new ArrayList<>();
        long each = Math.max(1, records / clients.size());
        for (int p = 0; p < clients.size(); p++) {
            KafkaProducer<byte[], byte[]> producer = clients.get(p);
            int first = p;
            done.add(threads.submit(() -> {
                go.await();
                send(producer, topic, partitions, first, each, failure);
                return null;
            }));
        }
        long start = System.nanoTime();
        go.countDown();
        for (Future<?> f : done) {
            f.get(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (failure.get() != null) {
            throw new IllegalStateException("a record was not acknowledged", failure.get());
        }
        return each * clients.size() / seconds;
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, int partitions, int first, long count,
                             AtomicReference<Exception> failure) {
        byte[] value = new byte[VALUE_BYTES];
        java.util.Arrays.fill(value, (byte) 'm');
        for (long j = 0; j < count; j++) {
            int partition = (int) ((first + j) % partitions);
            producer.send(new ProducerRecord<>(topic, partition, null, value), (metadata, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                }
            });
        }
        producer.flush();
    }

    /**
     * Writes one record to every partition of a new topic and waits for each acknowledgement: a broker
     * may name a partition's leader before that leader takes writes (Kafka's KRaft broker answers
     * NOT_LEADER_OR_FOLLOWER until it has applied the new topic), and that wait belongs to creating
     * the topic, not to the throughput measured after it.
     */
    static void writeToEveryPartition(String bootstrap, String topic, int partitions) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "curves-prime")) {
            for (int p = 0; p < partitions; p++) {
                producer.send(new ProducerRecord<>(topic, p, null, new byte[VALUE_BYTES]), (metadata, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a partition of " + topic + " took no record", failure.get());
        }
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap, String clientId) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
