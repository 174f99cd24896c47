package io.millrace.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.millrace.common.record.Header;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.ConsumerTimeoutException;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.GroupOffsets.PartitionLag;
import io.millrace.consumer.MessageStream;
import io.millrace.examples.QuickstartDemo.Event;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The demo's consuming side: a {@link GroupConsumer} in group {@value #GROUP}, its registries in
 * ZooKeeper, reads the topic from the earliest offsets ({@code auto.offset.reset=smallest}, the group
 * being new) with {@value #STREAMS} streams, one thread each, as the paper's consumers do. The
 * rebalance splits the partitions between the streams. Once every produced event has arrived the
 * offsets are committed, and {@link GroupOffsets} shows the group as {@code consumer-groups
 * --describe} does.
 */
final class GroupReader {

    static final String GROUP = "quickstart";
    static final String CONSUMER_ID = "quickstart-demo";
    private static final int STREAMS = 2;
    /** A stream silent this long gives up (consumer.timeout.ms), so a lost event fails the demo instead of hanging it. */
    private static final int SILENCE_MS = 10_000;

    /** An event and the stream that delivered it. */
    private record Delivery(int stream, Event event) {
    }

    private final String zookeeperConnect;
    private final PrintStream out;

    GroupReader(String zookeeperConnect, PrintStream out) {
        this.zookeeperConnect = zookeeperConnect;
        this.out = out;
    }

    /**
     * Reads until as many events as were produced have arrived, commits, and prints what was read
     * and the group's offsets; returns the events in partition and offset order.
     *
     * @throws IllegalStateException when events are missing or the committed offsets lag
     */
    List<Event> readAll(List<Event> produced) throws InterruptedException {
        Queue<Delivery> received = new ConcurrentLinkedQueue<>();
        try (GroupConsumer<String, String> consumer = new GroupConsumer<>(config(), new StringDeserializer(),
            new StringDeserializer())) {
            List<MessageStream<String, String>> streams =
                consumer.createMessageStreams(Map.of(QuickstartDemo.TOPIC, STREAMS)).get(QuickstartDemo.TOPIC);
            CountDownLatch remaining = new CountDownLatch(produced.size());
            List<Thread> readers = startReaders(streams, received, remaining);
            if (!remaining.await(SILENCE_MS + 5_000, TimeUnit.MILLISECONDS)) {
                throw missing(produced, received);
            }
            consumer.commit();
            printReads(received);
            printGroup();
            consumer.close();   // ends the streams, so the reader threads finish
            for (Thread reader : readers) {
                reader.join(SILENCE_MS);
            }
        }
        return received.stream().map(Delivery::event)
            .sorted(Comparator.comparingInt(Event::partition).thenComparingLong(Event::offset)).toList();
    }

    private static IllegalStateException missing(List<Event> produced, Queue<Delivery> received) {
        List<String> missing = new ArrayList<>();
        for (Event e : produced) {
            if (received.stream().noneMatch(d -> d.event().partition() == e.partition() && d.event().offset() == e.offset())) {
                missing.add("p" + e.partition() + "@" + e.offset());
            }
        }
        return new IllegalStateException("Group " + GROUP + " received " + received.size() + " of " + produced.size()
            + " events, nothing more within consumer.timeout.ms = " + SILENCE_MS + " ms; missing " + missing);
    }

    private ConsumerConfig config() {
        return new ConsumerConfig(Map.of(
            "zookeeper.connect", zookeeperConnect,   // the brokers come from its broker registry
            "group.id", GROUP,
            "consumer.id", CONSUMER_ID,
            "auto.offset.reset", "smallest",         // a new group starts at the earliest offsets
            "enable.auto.commit", "false",           // committed once, after everything was read
            "consumer.timeout.ms", SILENCE_MS));
    }

    private static List<Thread> startReaders(List<MessageStream<String, String>> streams, Queue<Delivery> received,
                                             CountDownLatch remaining) {
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            int stream = i;
            Thread reader = new Thread(() -> read(stream, streams.get(stream), received, remaining),
                "quickstart-stream-" + stream);
            reader.setDaemon(true);
            reader.start();
            readers.add(reader);
        }
        return readers;
    }

    /** One stream's thread: hands each message on until the consumer closes or the stream falls silent. */
    private static void read(int stream, MessageStream<String, String> messages, Queue<Delivery> received,
                             CountDownLatch remaining) {
        try {
            for (ConsumerRecord<String, String> record : messages) {
                received.add(new Delivery(stream, event(record)));
                messages.iterator().markProcessed();   // so the commit after the last event covers it
                remaining.countDown();
            }
        } catch (ConsumerTimeoutException silent) {
            // this stream's partitions are done, or stuck; the waiting thread reports which events are missing
        }
    }

    private static Event event(ConsumerRecord<String, String> record) {
        return new Event(record.partition(), record.offset(), record.timestamp(), record.key(), record.value(),
            contentType(record.headers()));
    }

    private static String contentType(List<Header> headers) {
        for (Header h : headers) {
            if (h.key().equals("content-type")) {
                return new String(h.value(), UTF_8);
            }
        }
        return null;
    }

    /** One line per partition: how many events, which offsets, which stream read them. */
    private void printReads(Queue<Delivery> received) {
        Map<Integer, List<Delivery>> byPartition = new TreeMap<>();
        received.forEach(d -> byPartition.computeIfAbsent(d.event().partition(), p -> new ArrayList<>()).add(d));
        out.printf("Group %s read them with %d streams, one thread each:%n", GROUP, STREAMS);
        byPartition.forEach((p, deliveries) -> {
            long first = deliveries.stream().mapToLong(d -> d.event().offset()).min().orElseThrow();
            long last = deliveries.stream().mapToLong(d -> d.event().offset()).max().orElseThrow();
            TreeSet<Integer> streams = new TreeSet<>();
            deliveries.forEach(d -> streams.add(d.stream()));
            out.printf("  p%d: %2d events, offsets %d-%d, by stream %s%n", p, deliveries.size(), first, last,
                streams.size() == 1 ? streams.first() : streams);
        });
    }

    /** The group as consumer-groups --describe shows it; every lag must be 0 after the commit. */
    private void printGroup() {
        List<PartitionLag> rows;
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect", zookeeperConnect)))) {
            rows = offsets.describe(GROUP);
        }
        out.printf("Committed offsets of group %s (consumer-groups --describe):%n", GROUP);
        out.printf("  %-9s %-14s %-14s %-3s %s%n", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "OWNER");
        for (PartitionLag row : rows) {
            out.printf("  %-9d %-14d %-14d %-3d %s%n", row.partition(), row.committedOffset(), row.logEndOffset(),
                row.lag(), row.owner());
        }
        if (rows.stream().anyMatch(row -> row.lag() != 0)) {
            throw new IllegalStateException("Group " + GROUP + " still lags after its commit: " + rows);
        }
    }
}
