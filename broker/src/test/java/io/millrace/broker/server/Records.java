package io.millrace.broker.server;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import java.time.Duration;
import java.util.Properties;

/** What a test produced and consumed, compared by key, value, headers and timestamp. */
record Records(String key, String value, List<String> headers, long timestamp) {

    static Records of(ProducerRecord<byte[], byte[]> record) {
        return new Records(str(record.key()), str(record.value()), headers(record.headers()), record.timestamp());
    }

    static Records of(ConsumerRecord<byte[], byte[]> record) {
        return new Records(str(record.key()), str(record.value()), headers(record.headers()), record.timestamp());
    }

    private static String str(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static List<String> headers(Iterable<Header> headers) {
        List<String> out = new ArrayList<>();
        for (Header h : headers) {
            out.add(h.key() + "=" + Arrays.toString(h.value()));
        }
        return out;
    }

    /** Reads every partition of {@code topic} from the start until {@code total} records arrived. */
    static Map<Integer, List<Records>> readAll(Properties base, String topic, int partitions, long total) {
        Properties props = new Properties();
        props.putAll(base);
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        Map<Integer, List<Records>> read = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                tps.add(new TopicPartition(topic, p));
            }
            consumer.assign(tps);
            tps.forEach(tp -> consumer.seek(tp, 0));
            long count = 0;
            long deadline = System.currentTimeMillis() + 60_000;
            while (count < total && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(of(r));
                    count++;
                }
            }
        }
        return read;
    }
}
