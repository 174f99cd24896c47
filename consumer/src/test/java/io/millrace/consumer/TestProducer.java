package io.millrace.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Test data through Kafka's own producer: values {@code <prefix>-<partition>-<i>}, keys {@code k<i>},
 * sent to explicit partitions and acknowledged before the call returns.
 */
public final class TestProducer implements AutoCloseable {

    private final KafkaProducer<String, String> producer;

    public TestProducer(String bootstrap) {
        this(bootstrap, "none");
    }

    public TestProducer(String bootstrap, String compression) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        this.producer = new KafkaProducer<>(props);
    }

    /** Sends {@code perPartition} records to each partition in {@code 0..partitions-1}; returns the values. */
    public List<String> produce(String topic, int partitions, int perPartition, String prefix) {
        List<String> values = new ArrayList<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                values.add(send(topic, p, i, prefix, null, acks));
            }
        }
        await(acks);
        return values;
    }

    /** Sends {@code count} records to one partition with the given timestamp (null: now). */
    public List<String> produceTo(String topic, int partition, int count, String prefix, Long timestamp) {
        List<String> values = new ArrayList<>();
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            values.add(send(topic, partition, i, prefix, timestamp, acks));
        }
        await(acks);
        return values;
    }

    private String send(String topic, int partition, int i, String prefix, Long timestamp, List<Future<RecordMetadata>> acks) {
        String value = prefix + "-" + partition + "-" + i;
        acks.add(producer.send(new ProducerRecord<>(topic, partition, timestamp, "k" + i, value)));
        return value;
    }

    private static void await(List<Future<RecordMetadata>> acks) {
        try {
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new AssertionError("Producing test data failed", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
