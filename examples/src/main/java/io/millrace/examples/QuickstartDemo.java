package io.millrace.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.CreateTopicsRequest.CreatableTopic;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.common.protocol.message.CreateTopicsResponse.CreatableTopicResult;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchRequest.FetchPartition;
import io.millrace.common.protocol.message.FetchRequest.FetchTopic;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsPartition;
import io.millrace.common.protocol.message.ListOffsetsRequest.ListOffsetsTopic;
import io.millrace.common.protocol.message.ListOffsetsResponse;
import io.millrace.common.protocol.message.ListOffsetsResponse.ListOffsetsPartitionResponse;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;
import io.millrace.common.protocol.types.RecordsPayload;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

/**
 * {@code bin/millrace demo}: the whole path of an event through Millrace, in one JVM, in a few
 * seconds. It starts a standalone ZooKeeper and a broker ({@link LocalCluster}), creates the topic
 * {@value #TOPIC} with {@value #PARTITIONS} partitions, produces page views (JSON values keyed by
 * user id, with a content-type header) in one Produce request per compression codec, fetches every
 * partition back from offset 0, lists the earliest and latest offsets, and shuts everything down.
 * All of it goes over the Kafka wire protocol through {@link SimpleKafkaClient}.
 *
 * <p>With {@code --keep-running} the broker stays up afterwards, for Kafka's own tools, until
 * Ctrl-C or SIGTERM.
 */
public final class QuickstartDemo {

    public static final String TOPIC = "page-views";
    public static final int PARTITIONS = 3;
    static final int EVENTS_PER_CODEC = 5;
    private static final Header CONTENT_TYPE = new Header("content-type", "application/json".getBytes(UTF_8));
    private static final String[] PAGES = {"/", "/pricing", "/docs/quickstart", "/blog/millrace-0.1", "/signup"};
    private static final int USERS = 7;
    private static final int MAX_BYTES = 1 << 20;
    /** How long produce retries a partition whose log the broker is still opening. */
    private static final long RETRY_TIMEOUT_MS = 10_000;

    /** One event as produced or as read back; the header is the content-type value. */
    public record Event(int partition, long offset, long timestamp, String key, String value, String contentType) {
    }

    /** The events produced, in the order of their offsets, and the events fetched back. */
    public record Result(List<Event> produced, List<Event> consumed) {

        public boolean allReadBack() {
            return produced.equals(consumed);
        }
    }

    private final SimpleKafkaClient client;
    private final PrintStream out;

    private QuickstartDemo(SimpleKafkaClient client, PrintStream out) {
        this.client = client;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        boolean keepRunning = false;
        for (String arg : args) {
            switch (arg) {
                case "--keep-running" -> keepRunning = true;
                case "-h", "--help" -> {
                    System.out.println("Usage: millrace demo [--keep-running]");
                    return;
                }
                default -> {
                    System.err.println("millrace demo: unknown option " + arg + "\nUsage: millrace demo [--keep-running]");
                    System.exit(2);
                }
            }
        }
        LocalCluster cluster = LocalCluster.start();
        Result result;
        try {
            result = run(cluster, System.out);
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        if (keepRunning) {
            report(result);
            keepRunning(cluster);
            return;
        }
        stop(cluster);
        report(result);
    }

    private static void stop(LocalCluster cluster) {
        cluster.close();
        System.out.println("Stopped the broker and ZooKeeper; deleted their data.");
    }

    /** Starts a cluster, runs the demo against it, stops it; what the test calls. */
    public static Result run(PrintStream out) throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            return run(cluster, out);
        }
    }

    static Result run(LocalCluster cluster, PrintStream out) throws IOException, InterruptedException {
        out.printf("ZooKeeper on %s, broker 0 on %s (logs in %s)%n", cluster.zookeeperConnect(),
            cluster.bootstrapServers(), cluster.logDir());
        try (SimpleKafkaClient client = new SimpleKafkaClient(cluster.host(), cluster.brokerPort(), "quickstart")) {
            QuickstartDemo demo = new QuickstartDemo(client, out);
            demo.createTopic();
            List<Event> produced = demo.produceAll();
            List<Event> consumed = demo.fetchAll();
            demo.printOffsets();
            return new Result(produced, consumed);
        }
    }

    private void createTopic() throws IOException {
        CreatableTopic topic = new CreatableTopic(TOPIC, PARTITIONS, (short) 1, List.of(), List.of());
        CreateTopicsResponse response = client.call(new CreateTopicsRequest(List.of(topic), 10_000, false));
        CreatableTopicResult result = response.topics().get(0);
        check(result.error(), "CreateTopics " + TOPIC + ": " + result.errorMessage());
        out.printf("Created topic %s with %d partitions%n", TOPIC, PARTITIONS);
        out.println("Page views: key = user id (same user, same partition), value = JSON, header content-type");
    }

    // ---- produce

    /** One Produce request per codec, each with a batch for every partition its events hash to. */
    private List<Event> produceAll() throws IOException, InterruptedException {
        List<Event> produced = new ArrayList<>();
        long now = System.currentTimeMillis();
        CompressionType[] codecs = CompressionType.values();
        for (int c = 0; c < codecs.length; c++) {
            List<Event> events = IntStream.range(0, EVENTS_PER_CODEC)
                .mapToObj(i -> pageView(now, produced.size() + i)).toList();
            produced.addAll(produce(codecs[c], events));
        }
        produced.sort(Comparator.comparingInt(Event::partition).thenComparingLong(Event::offset));
        return produced;
    }

    /** The n-th page view, without an offset yet: a user id key, a JSON value. */
    private static Event pageView(long now, int n) {
        String user = "user-" + (1 + n * 3 % USERS);
        long timestamp = now + n;
        String json = String.format("{\"user\":\"%s\",\"page\":\"%s\",\"ts\":%d}", user, PAGES[n % PAGES.length], timestamp);
        return new Event(partitionFor(user), -1, timestamp, user, json, "application/json");
    }

    /** Same key, same partition. (Kafka's producer uses murmur2; any stable hash shows the idea.) */
    private static int partitionFor(String key) {
        return Math.floorMod(key.hashCode(), PARTITIONS);
    }

    /** Produces the events, a batch per partition in one request, and returns them with their offsets. */
    private List<Event> produce(CompressionType codec, List<Event> events) throws IOException, InterruptedException {
        Map<Integer, List<Event>> byPartition = new TreeMap<>();
        events.forEach(e -> byPartition.computeIfAbsent(e.partition(), p -> new ArrayList<>()).add(e));
        Map<Integer, ByteBuffer> batches = new TreeMap<>();
        byPartition.forEach((p, list) -> batches.put(p, batch(codec, list)));
        Map<Integer, Long> baseOffsets = sendWithRetries(batches);

        List<Event> withOffsets = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        byPartition.forEach((p, list) -> {
            long base = baseOffsets.get(p);
            for (int i = 0; i < list.size(); i++) {
                Event e = list.get(i);
                withOffsets.add(new Event(p, base + i, e.timestamp(), e.key(), e.value(), e.contentType()));
            }
            line.append(list.size() == 1 ? String.format("  p%d@%d", p, base)
                : String.format("  p%d@%d-%d", p, base, base + list.size() - 1));
        });
        out.printf("Produced %d events as %-6s batches:%s%n", events.size(), codec.configName, line);
        return withOffsets;
    }

    private static ByteBuffer batch(CompressionType codec, List<Event> events) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(codec, 0L, 1024);
        for (Event e : events) {
            builder.append(e.timestamp(), e.key().getBytes(UTF_8), e.value().getBytes(UTF_8), CONTENT_TYPE);
        }
        return builder.build();
    }

    /**
     * Sends the batches with acks=1 and returns each partition's base offset. A partition the
     * broker has not opened yet (the topic was created a moment ago) answers a retriable error;
     * only those partitions are sent again, as a Kafka producer would.
     */
    private Map<Integer, Long> sendWithRetries(Map<Integer, ByteBuffer> batches) throws IOException, InterruptedException {
        Map<Integer, ByteBuffer> pending = new TreeMap<>(batches);
        Map<Integer, Long> baseOffsets = new TreeMap<>();
        long deadline = System.currentTimeMillis() + RETRY_TIMEOUT_MS;
        while (!pending.isEmpty()) {
            List<ProduceRequest.PartitionData> data = new ArrayList<>();
            pending.forEach((p, batch) -> data.add(new ProduceRequest.PartitionData(p, batch.duplicate())));
            ProduceResponse response = client.call(new ProduceRequest(null, (short) 1, 10_000,
                List.of(new ProduceRequest.TopicData(TOPIC, data))));
            for (PartitionResponse p : response.responses().get(0).partitionResponses()) {
                if (p.error() == Errors.NONE) {
                    baseOffsets.put(p.index(), p.baseOffset());
                    pending.remove(p.index());
                } else if (!p.error().isRetriable() || System.currentTimeMillis() > deadline) {
                    check(p.error(), "Produce to " + TOPIC + "-" + p.index() + ": " + p.errorMessage());
                }
            }
            if (!pending.isEmpty()) {
                Thread.sleep(50);
            }
        }
        return baseOffsets;
    }

    // ---- fetch

    private List<Event> fetchAll() throws IOException {
        List<Event> consumed = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            consumed.addAll(fetchPartition(p));
        }
        out.println("Fetched back:");
        out.printf("  %-9s %-6s %-7s %s%n", "partition", "offset", "key", "value");
        consumed.forEach(e -> out.printf("  %-9d %-6d %-7s %s%n", e.partition(), e.offset(), e.key(), e.value()));
        return consumed;
    }

    /** Fetches from offset 0 until the high watermark, as a consumer with nothing committed would. */
    private List<Event> fetchPartition(int partition) throws IOException {
        List<Event> events = new ArrayList<>();
        long position = 0;
        long highWatermark;
        do {
            FetchTopic topic = new FetchTopic(TOPIC, List.of(FetchPartition.of(partition, position, MAX_BYTES)));
            FetchResponse response = client.call(new FetchRequest(-1, 0, 0, MAX_BYTES, (byte) 0, 0, -1,
                List.of(topic), List.of(), ""));
            PartitionData data = response.responses().get(0).partitions().get(0);
            check(data.error(), "Fetch " + TOPIC + "-" + partition + " at " + position);
            int before = events.size();
            readRecords(partition, data.records(), position, events);
            if (events.size() == before && position < data.highWatermark()) {
                throw new IOException("Fetch " + TOPIC + "-" + partition + " at " + position + " returned no records");
            }
            position = events.isEmpty() ? position : events.get(events.size() - 1).offset() + 1;
            highWatermark = data.highWatermark();
        } while (position < highWatermark);
        return events;
    }

    /** Decodes (and decompresses) every record at or after {@code from}; a fetch may start mid-batch. */
    private static void readRecords(int partition, RecordsPayload payload, long from, List<Event> into) {
        if (payload == null || payload.sizeInBytes() == 0) {
            return;
        }
        ByteBuffer bytes = ByteBuffer.allocate(payload.sizeInBytes());
        payload.copyTo(bytes);
        for (RecordBatch batch : RecordBatchIterator.batches(bytes.flip())) {
            batch.ensureValid();
            try (RecordIterator records = batch.records()) {
                while (records.hasNext()) {
                    Record r = records.next();
                    if (r.offset() >= from) {
                        into.add(new Event(partition, r.offset(), r.timestamp(), utf8(r.key()), utf8(r.value()),
                            contentType(r.headers())));
                    }
                }
            }
        }
    }

    private static String contentType(Header[] headers) {
        for (Header h : headers) {
            if (h.key().equals(CONTENT_TYPE.key())) {
                return new String(h.value(), UTF_8);
            }
        }
        return null;
    }

    private static String utf8(ByteBuffer buffer) {
        return buffer == null ? null : UTF_8.decode(buffer.duplicate()).toString();
    }

    // ---- offsets

    private void printOffsets() throws IOException {
        Map<Integer, Long> earliest = listOffsets(ListOffsetsRequest.EARLIEST_TIMESTAMP);
        Map<Integer, Long> latest = listOffsets(ListOffsetsRequest.LATEST_TIMESTAMP);
        StringBuilder line = new StringBuilder("Offsets (earliest..latest):");
        earliest.forEach((p, offset) -> line.append(String.format("  p%d %d..%d", p, offset, latest.get(p))));
        out.println(line);
    }

    private Map<Integer, Long> listOffsets(long timestamp) throws IOException {
        List<ListOffsetsPartition> partitions = IntStream.range(0, PARTITIONS)
            .mapToObj(p -> new ListOffsetsPartition(p, -1, timestamp)).toList();
        ListOffsetsResponse response = client.call(new ListOffsetsRequest(-1, (byte) 0,
            List.of(new ListOffsetsTopic(TOPIC, partitions))));
        Map<Integer, Long> offsets = new TreeMap<>();
        for (ListOffsetsPartitionResponse p : response.topics().get(0).partitions()) {
            check(p.error(), "ListOffsets " + TOPIC + "-" + p.partitionIndex());
            offsets.put(p.partitionIndex(), p.offset());
        }
        return offsets;
    }

    private static void check(Errors error, String what) throws IOException {
        if (error != Errors.NONE) {
            throw new IOException(what + " failed: " + error);
        }
    }

    // ---- main's ending

    private static void keepRunning(LocalCluster cluster) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop(cluster);
            stopped.countDown();
        }, "quickstart-shutdown"));
        System.out.printf("Broker up: bootstrap.servers=%s (ZooKeeper %s). Ctrl-C to stop.%n",
            cluster.bootstrapServers(), cluster.zookeeperConnect());
        stopped.await();
    }

    private static void report(Result result) {
        if (!result.allReadBack()) {
            System.out.printf("FAILED: produced %d, consumed %d, and they differ%n", result.produced().size(),
                result.consumed().size());
            System.exit(1);
        }
        System.out.printf("OK: produced %d, consumed %d%n", result.produced().size(), result.consumed().size());
    }
}
