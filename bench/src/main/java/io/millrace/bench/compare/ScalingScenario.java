package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.bench.compare.Scenarios.ProducerMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Scenario 5, after the Kafka 0.8 broker-scaling test (throughput up 33% from 1 to 2 brokers and
 * 28% from 2 to 3): a cluster of 1, 2 or 3 brokers on this machine, a topic of
 * {@value #PARTITIONS} partitions with replication factor 1 placed by the cluster's own
 * assignment (so spread evenly over the brokers), and {@value #PRODUCERS} producer threads in this
 * JVM, each its own KafkaProducer with the settings of {@link ProducerMode#TUNED}, each sending
 * the same number of 200-byte records without key. Measured: all records of all producers, from
 * the first send to the last acknowledgement.
 */
final class ScalingScenario {

    /** The cluster sizes of the 2014 test. */
    static final List<Integer> BROKER_COUNTS = List.of(1, 2, 3);
    static final int PARTITIONS = 6;
    static final int PRODUCERS = 3;
    static final String TOPIC = "scaling";
    private static final long PRODUCE_TIMEOUT_MINUTES = 10;

    private ScalingScenario() {
    }

    /**
     * Starts a cluster of {@code brokers} brokers of {@code side} ({@link BrokerComparison#MILLRACE}
     * or {@link BrokerComparison#KAFKA}), data under {@code dataParent} and process output in
     * {@code logDir}, runs the workload with {@code countPerProducer} records per producer, and
     * stops and deletes the cluster.
     */
    static Measurement run(String side, int brokers, Path dataParent, Path logDir, String heap, long countPerProducer)
        throws Exception {
        try (BrokerCluster cluster = BrokerCluster.start(side, brokers, dataParent, logDir, heap)) {
            cluster.createTopic(TOPIC, PARTITIONS);
            return produce(cluster.bootstrapServers(), TOPIC, PARTITIONS, PRODUCERS, countPerProducer);
        }
    }

    /**
     * {@code producers} producers, each in a thread of its own, each sending {@code countPerProducer}
     * records; timed from when all have their metadata and start sending until the last one's last
     * acknowledgement. Records per request is the producers' mean.
     */
    static Measurement produce(String bootstrap, String topic, int partitions, int producers, long countPerProducer)
        throws Exception {
        return produce(bootstrap, topic, partitions, producers, countPerProducer, Map.of());
    }

    /** As above, with {@code settings} over the tuned producer's (such as {@code acks}). */
    static Measurement produce(String bootstrap, String topic, int partitions, int producers, long countPerProducer,
                               Map<String, String> settings) throws Exception {
        CountDownLatch ready = new CountDownLatch(producers);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(producers);
        try {
            List<Future<ProducerResult>> results = new ArrayList<>();
            for (int i = 0; i < producers; i++) {
                int producer = i;
                results.add(threads.submit(() -> send(config(bootstrap, settings), topic, partitions, producer,
                    countPerProducer, ready, go)));
            }
            awaitReady(ready, results);
            long start = System.nanoTime();
            go.countDown();
            long end = start;
            double recordsPerRequest = 0;
            for (Future<ProducerResult> result : results) {
                ProducerResult r = result.get(PRODUCE_TIMEOUT_MINUTES, TimeUnit.MINUTES);
                end = Math.max(end, r.finishedNanos());
                recordsPerRequest += r.recordsPerRequest() / producers;
            }
            return new Measurement(countPerProducer * producers, (end - start) / 1e9, recordsPerRequest);
        } finally {
            go.countDown(); // lets ready producers finish (and close) if another failed
            threads.shutdownNow();
            threads.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** Waits for every producer's metadata; a producer that fails before that fails the run. */
    private static void awaitReady(CountDownLatch ready, List<Future<ProducerResult>> results) throws Exception {
        while (!ready.await(100, TimeUnit.MILLISECONDS)) {
            for (Future<ProducerResult> result : results) {
                if (result.isDone()) {
                    result.get(); // throws its failure
                    throw new IllegalStateException("A producer finished before the start");
                }
            }
        }
    }

    private record ProducerResult(long finishedNanos, double recordsPerRequest) {
    }

    /**
     * One producer: record {@code j} goes to partition {@code (producer + j) % partitions}. Explicit
     * round-robin rather than the default sticky partitioner, which fills a whole batch (up to 256
     * KiB, some 1250 records) on one partition before it moves on and, being adaptive, leans
     * towards the brokers that answer fastest: this way every partition, and so every broker in
     * proportion to the partitions it leads, gets exactly the same number of records on either side.
     */
    private static ProducerResult send(Properties config, String topic, int partitions, int producer, long count,
                                       CountDownLatch ready, CountDownLatch go) throws Exception {
        byte[] value = new byte[Scenarios.MESSAGE_BYTES];
        new Random(42 + producer).nextBytes(value);
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong acked = new AtomicLong();
        try (KafkaProducer<byte[], byte[]> kafkaProducer = new KafkaProducer<>(config)) {
            kafkaProducer.partitionsFor(topic); // metadata outside the timing
            ready.countDown();
            go.await();
            for (long j = 0; j < count && failure.get() == null; j++) {
                int partition = (int) ((producer + j) % partitions);
                kafkaProducer.send(new ProducerRecord<>(topic, partition, null, value), (md, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        acked.incrementAndGet();
                    }
                });
            }
            kafkaProducer.flush();
            long finished = System.nanoTime();
            if (failure.get() != null) {
                throw new IllegalStateException("Producer " + producer + " failed", failure.get());
            }
            if (acked.get() != count) {
                throw new IllegalStateException("Producer " + producer + ": " + acked.get() + " of " + count + " acknowledged");
            }
            return new ProducerResult(finished, metric(kafkaProducer, "records-per-request-avg"));
        }
    }

    /** The producer settings of the single-broker comparison's tuned producer, then {@code settings}. */
    private static Properties config(String bootstrap, Map<String, String> settings) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", "1");
        props.put("enable.idempotence", "false");
        props.put("compression.type", "none");
        Scenarios.putSocketBuffers(props);
        props.putAll(ProducerMode.TUNED.config);
        props.putAll(settings);
        return props;
    }

    private static double metric(KafkaProducer<?, ?> producer, String name) {
        for (Map.Entry<MetricName, ? extends Metric> e : producer.metrics().entrySet()) {
            if (e.getKey().group().equals("producer-metrics") && e.getKey().name().equals(name)
                && e.getValue().metricValue() instanceof Double d) {
                return d;
            }
        }
        return Double.NaN;
    }
}
