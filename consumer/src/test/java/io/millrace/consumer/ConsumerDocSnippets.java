package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringDeserializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The code of the Consumers section of docs/clients.md, compiled and run by {@link ConsumerDocSnippetsTest}
 * so that the documentation cannot drift from the API. Each method is one snippet; keep them in step.
 */
final class ConsumerDocSnippets {

    private ConsumerDocSnippets() {
    }

    /** docs/clients.md: reading an offset range with the PartitionReader. */
    static List<String> readRange(String bootstrap) {
        List<String> values = new ArrayList<>();
        ConsumerConfig config = new ConsumerConfig(Map.of("bootstrap.servers", bootstrap));
        try (PartitionReader reader = new PartitionReader(config)) {
            TopicPartition tp = new TopicPartition("events", 0);
            long start = reader.earliestOffset(tp);
            long end = reader.latestOffset(tp);              // fixed now: later records are left for the next run
            Iterator<ConsumerRecord<String, String>> records =
                reader.read(tp, start, end, new StringDeserializer(), new StringDeserializer());
            while (records.hasNext()) {
                ConsumerRecord<String, String> record = records.next();
                values.add(record.value());                  // record.offset(), key(), headers(), timestamp() ...
            }
        }
        return values;
    }

    /** docs/clients.md: the same range as views over the fetched bytes. */
    static List<String> readRangeAsViews(String bootstrap) {
        List<String> values = new ArrayList<>();
        ConsumerConfig config = new ConsumerConfig(Map.of("bootstrap.servers", bootstrap));
        try (PartitionReader reader = new PartitionReader(config)) {
            TopicPartition tp = new TopicPartition("events", 0);
            RecordViews views = reader.readViews(tp, reader.earliestOffset(tp), reader.latestOffset(tp));
            while (views.advance()) {
                RecordView record = views.current();         // one object, refilled: valid until the next advance()
                ByteBuffer value = record.value();           // a read-only slice of the fetched bytes, not a copy
                values.add(StandardCharsets.UTF_8.decode(value).toString());
            }                                                // or buffer().get(valuePosition() + i), valueLength(), offset() ...
        }
        return values;
    }

    /** docs/clients.md: the group consumer's streams. */
    static List<String> groupStreams(String zookeeper, int max) {
        List<String> values = new ArrayList<>();
        ConsumerConfig config = new ConsumerConfig(Map.of(
            "zookeeper.connect", zookeeper,                  // group registries; brokers come from its broker registry
            "group.id", "event-counter",
            "auto.offset.reset", "smallest"));               // a new group starts at the earliest offsets
        try (GroupConsumer<String, String> consumer =
                 new GroupConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            MessageStream<String, String> stream =
                consumer.createMessageStreams(Map.of("events", 1)).get("events").get(0);
            for (ConsumerRecord<String, String> record : stream) {   // blocks for the next message, never ends
                values.add(record.value());
                if (values.size() == max) {
                    break;
                }
            }
        }                                                    // close() commits what was consumed
        return values;
    }

    /** docs/clients.md: the poll loop. */
    static List<String> pollLoop(String zookeeper, int max) throws InterruptedException {
        List<String> values = new ArrayList<>();
        ConsumerConfig config = new ConsumerConfig(Map.of(
            "zookeeper.connect", zookeeper, "group.id", "event-poller",
            "auto.offset.reset", "smallest", "enable.auto.commit", "false"));
        try (PollingConsumer<String, String> consumer =
                 new PollingConsumer<>(config, new StringDeserializer(), new StringDeserializer(), 500)) {
            consumer.subscribe(Set.of("events"));
            while (values.size() < max) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    values.add(record.value());
                }
                consumer.commit();                           // after processing: at-least-once
            }
        }
        return values;
    }
}
