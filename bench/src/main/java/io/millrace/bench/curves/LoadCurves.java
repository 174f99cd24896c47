package io.millrace.bench.curves;

import io.millrace.bench.compare.BrokerProcess;
import io.millrace.bench.compare.RunStatistics;
import io.millrace.bench.curves.CurveResults.Curve;
import io.millrace.bench.curves.CurveResults.Metric;
import io.millrace.bench.groups.GroupClients;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * The curves of one round on one broker, each step on a topic of its own that is deleted after it:
 * throughput and memory against the topic's partitions, throughput against concurrent producers, and
 * memory and one producer's throughput against idle connections held open.
 */
final class LoadCurves {

    static final Metric THROUGHPUT = new Metric("produce throughput", "records/s", true);
    static final Metric CPU = new Metric("broker CPU time per record", "µs", false);
    static final Metric RSS = new Metric("broker resident memory (VmRSS)", "MB", false);
    static final Metric OUTSIDE_HEAP = new Metric("broker resident memory outside the heap", "MB", false);
    static final Metric HEAP = new Metric("broker heap live after a full GC", "MB", false);
    static final Metric CREATE = new Metric("topic creation until every partition took a record", "ms", false);
    static final Metric CLOSED = new Metric("idle connections the broker closed", "connections", false);

    static final Curve PARTITIONS = curve("partitions", "a) Partitions of one topic", "partitions", CurveOptions.PARTITIONS);
    static final Curve PRODUCERS = curve("producers", "b) Concurrent producers, one topic of "
        + LoadCurves.SHARED_PARTITIONS + " partitions", "producers", CurveOptions.PRODUCERS);
    static final Curve IDLE = curve("idle", "c) Idle connections held open, one producer writing", "idle connections",
        CurveOptions.IDLE_CONNECTIONS);

    static final int SHARED_PARTITIONS = 10;

    private final CurveResults results;
    private final long records;
    private final CurveOptions options;

    LoadCurves(CurveResults results, long records, CurveOptions options) {
        this.results = results;
        this.records = records;
        this.options = options;
        char letter = 'a';
        for (Curve c : List.of(PARTITIONS, PRODUCERS, IDLE)) {
            if (options.runs(letter++)) {
                results.curve(c);
            }
        }
    }

    private static Curve curve(String id, String title, String load, List<Integer> steps) {
        return new Curve(id, title, load, steps.stream().map(LoadCurves::step).toList());
    }

    static String step(int n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** The curves asked for on {@code broker}; {@code record} false for the warm-up, which only runs them. */
    void round(String side, BrokerProcess broker, String bootstrap, int run, boolean record) throws Exception {
        if (options.runs('a')) {
            partitions(side, broker, bootstrap, run, record);
        }
        if (options.runs('b')) {
            producers(side, broker, bootstrap, run, record);
        }
        if (options.runs('c')) {
            idle(side, broker, bootstrap, run, record);
        }
    }

    private void partitions(String side, BrokerProcess broker, String bootstrap, int run, boolean record) throws Exception {
        for (int n : CurveOptions.PARTITIONS) {
            String topic = "partitions-" + n + "-r" + run;
            long start = System.nanoTime();
            create(bootstrap, topic, n);
            double createMs = (System.nanoTime() - start) / 1e6;
            add(record, PARTITIONS, CREATE, n, side, createMs);
            produce(record, PARTITIONS, n, side, broker, bootstrap, topic, n, 1);
            memory(record, PARTITIONS, n, side, broker);
            delete(bootstrap, topic);
        }
    }

    private void producers(String side, BrokerProcess broker, String bootstrap, int run, boolean record) throws Exception {
        String topic = "producers-r" + run;
        create(bootstrap, topic, SHARED_PARTITIONS);
        for (int n : CurveOptions.PRODUCERS) {
            produce(record, PRODUCERS, n, side, broker, bootstrap, topic, SHARED_PARTITIONS, n);
        }
        delete(bootstrap, topic);
    }

    /** The steps open connections cumulatively: those of a step stay open through the next. */
    private void idle(String side, BrokerProcess broker, String bootstrap, int run, boolean record) throws Exception {
        String topic = "idle-r" + run;
        create(bootstrap, topic, 1);
        try (IdleConnections idle = new IdleConnections(bootstrap)) {
            for (int n : CurveOptions.IDLE_CONNECTIONS) {
                idle.openUpTo(n);
                memory(record, IDLE, n, side, broker);
                produce(record, IDLE, n, side, broker, bootstrap, topic, 1, 1);
                add(record, IDLE, CLOSED, n, side, idle.closedByBroker());
            }
        }
        delete(bootstrap, topic);
    }

    /**
     * The throughput of {@link ProduceLoad}, and the CPU time the broker's JVM used over it per record
     * (the producers' connecting included): where a curve bends, whether the broker's work per record grew.
     */
    private void produce(boolean record, Curve curve, int step, String side, BrokerProcess broker, String bootstrap,
                         String topic, int partitions, int producers) throws Exception {
        double cpuBefore = broker.cpuMillis();
        double rate = ProduceLoad.run(bootstrap, topic, partitions, producers, records);
        double cpuMs = broker.cpuMillis() - cpuBefore;
        add(record, curve, THROUGHPUT, step, side, rate);
        add(record, curve, CPU, step, side, cpuMs * 1000 / records);
    }

    /** Resident memory, in all and outside the heap, then the heap's live part (which costs a full GC). */
    private void memory(boolean record, Curve curve, int step, String side, BrokerProcess broker) {
        add(record, curve, RSS, step, side, BrokerMemory.rssMb(broker.pid()));
        add(record, curve, OUTSIDE_HEAP, step, side, BrokerMemory.outsideHeapMb(broker.pid()));
        add(record, curve, HEAP, step, side, BrokerMemory.liveHeapMb(broker.pid()));
    }

    private void add(boolean record, Curve curve, Metric metric, int step, String side, double value) {
        System.err.printf(Locale.ROOT, "bench-curves:   %s %s, %s: %s %s%n", side, curve.id(), step(step), metric.name(),
            RunStatistics.format(value), metric.unit());
        if (record) {
            results.add(curve, metric, step(step), side, value);
        }
    }

    /** A topic every partition of which takes writes, as the curves measure them. */
    static void create(String bootstrap, String topic, int partitions) throws Exception {
        GroupClients.createTopic(bootstrap, topic, partitions, Map.of());
        ProduceLoad.writeToEveryPartition(bootstrap, topic, partitions);
    }

    static void delete(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.deleteTopics(List.of(topic)).all().get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
