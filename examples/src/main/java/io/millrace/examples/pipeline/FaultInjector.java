package io.millrace.examples.pipeline;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReader;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.hadoop.load.LoadFailedException;
import io.millrace.hadoop.state.LoadSummary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * {@code bin/millrace demo --faults}: the demo's traffic in phases, with a fault in each, at points the
 * traffic itself marks (so the run is the same every time, not a matter of sleeps):
 * <ol>
 *   <li>both data centres send while one of dc1's brokers is shut down and started again (its producers
 *       retry; a clean shutdown answers every request it took, so nothing is written twice);</li>
 *   <li>once the mirror has committed the partition chosen below, dc2 sends and the mirror, a process of
 *       its own, is killed with SIGKILL mid-copy;</li>
 *   <li>with the mirror down, dc1 sends into a fresh segment of that partition, and retention deletes the
 *       segment before the mirror copied it: those records are lost, and only those;</li>
 *   <li>the mirror starts again from its committed offsets (dc2's records it had copied past its last
 *       commit are found offline and not written again; the deleted offsets are a lost range) while both
 *       data centres send the rest.</li>
 * </ol>
 * Then the first load's first map task fails; the load commits nothing and the next one loads everything.
 */
final class FaultInjector {

    private static final long TRIGGER_LIMIT_MS = 60_000;

    /** What the faults did: the events acknowledged, the records offline, the mirror's duplicates, the loss. */
    record Result(long acknowledged, long mirrored, long duplicates, SegmentDeletion.Deleted lost) {
    }

    private final List<DataCentre> live;
    private final DataCentre offline;
    private final List<String> topics;
    private final long eventsPerDc;
    private final Path dir;
    private final PrintStream out;
    private final Consumer<String> stage;

    FaultInjector(List<DataCentre> live, DataCentre offline, List<String> topics, long eventsPerDc, Path dir,
                  PrintStream out, Consumer<String> stage) {
        this.live = live;
        this.offline = offline;
        this.topics = topics;
        this.eventsPerDc = eventsPerDc;
        this.dir = dir;
        this.out = out;
        this.stage = stage;
    }

    /** Mirrors the traffic into the offline cluster through the faults; returns once the mirror has stopped. */
    Result mirrorThroughFaults() throws Exception {
        DataCentre dc1 = live.get(0);
        DataCentre dc2 = live.get(1);
        long phase = Math.max(1, eventsPerDc / 3);
        TopicPartition doomed = new TopicPartition(topics.get(0), 0);
        long acknowledged = 0;
        try (MirrorProcess mirror = MirrorProcess.start(live, offline, topics, dir.resolve("mirror"))) {
            stage.accept("mirror maker running as a process of its own (pid " + mirror.pid() + "), copying dc1 and "
                + "dc2 into offline");
            long dc1Before = records(dc1);
            acknowledged += sendWhile(live, phase, sender -> restartBroker(dc1, 1, dc1Before + phase / 2, sender));
            long copiedUpTo = mirror.awaitCommitted(dc1, doomed.topic(), doomed.partition());
            long offlineBefore = records(offline);
            acknowledged += sendWhile(List.of(dc2), phase, sender -> killMirror(mirror, offlineBefore + phase / 4, sender));
            SegmentDeletion segment = SegmentDeletion.of(dc1, doomed);
            segment.roll();   // dc1's next records in the partition start a segment of their own
            acknowledged += FrontEnds.send(List.of(dc1), topics, phase, out);
            SegmentDeletion.Deleted lost = segment.deleteClosedSegments(copiedUpTo);
            stage.accept(String.format(Locale.ROOT, "FAULT: deleted the segments of dc1 %s on broker %d as retention "
                + "does (the log starts at %d now); offsets %d to %d, %,d records, were not mirrored yet: LOST",
                lost.partition(), lost.brokerId(), lost.to(), lost.from(), lost.to() - 1, lost.records()));
            mirror.start();
            stage.accept("mirror maker started again (pid " + mirror.pid() + ") from its groups' committed offsets");
            acknowledged += FrontEnds.send(live, topics, eventsPerDc - 2 * phase, out);
            mirror.awaitCaughtUp();
            long duplicates = mirror.stop();
            long mirrored = records(offline);
            stage.accept(String.format(Locale.ROOT, "front-ends done: %,d events acknowledged by dc1 and dc2; mirror "
                + "caught up and stopped: %,d records in offline; %,d records the killed mirror had copied after its "
                + "last commit were found offline and not written again", acknowledged, mirrored, duplicates));
            return new Result(acknowledged, mirrored, duplicates, lost);
        }
    }

    /**
     * Loads with a map task that fails: the LocalJobRunner gives a task one attempt, so the job fails and
     * nothing is committed; then loads again, with nothing failing.
     */
    LoadSummary loadThroughFailedTask(Path loadDir) throws Exception {
        try {
            LoadStage.run(offline, topics, loadDir, FailingLoadMapper.class);
            throw new IllegalStateException("The load whose first map task fails did not fail");
        } catch (LoadFailedException expected) {
            stage.accept("FAULT: map task 0 of the load failed halfway through its split; the job failed and the load "
                + "committed nothing (no files, offsets or audit counts); loading again");
        }
        return LoadStage.run(offline, topics, loadDir);
    }

    /** A fault to inject while the front-ends send, given their run to watch. */
    private interface Fault {
        void inject(Future<Long> sender) throws Exception;
    }

    private long sendWhile(List<DataCentre> dcs, long events, Fault fault) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Long> sender = pool.submit(() -> FrontEnds.send(dcs, topics, events, out));
            fault.inject(sender);
            return sender.get();
        } finally {
            pool.shutdownNow();
        }
    }

    /** Once dc's event topics hold {@code records}, shuts broker {@code index} down cleanly and starts it again. */
    private void restartBroker(DataCentre dc, int index, long records, Future<Long> sender) throws Exception {
        await(() -> records(dc), records, sender);
        LocalCluster cluster = dc.cluster();
        int id = cluster.broker(index).brokerId();
        long start = System.nanoTime();
        cluster.stopBroker(index);
        cluster.startBroker(index);
        stage.accept(String.format(Locale.ROOT, "FAULT: restarted broker %d of %s (a clean shutdown, %d ms down) while "
            + "its front-ends sent; they retried", id, dc.name(), (System.nanoTime() - start) / 1_000_000));
    }

    /**
     * Once the offline cluster holds {@code records}, kills the mirror with SIGKILL, at a moment when the audit
     * topic holds its counts of everything it committed. A kill between a commit and the publication of its
     * counts (a tenth of a second here) would lose those counts, which the report would show as missing at the
     * mirror's tiers: a false alarm the mirror does not prevent yet (docs/mirror-maker.md, "The audit tier").
     */
    private void killMirror(MirrorProcess mirror, long records, Future<Long> sender) throws Exception {
        await(() -> records(offline), records, sender);
        long pid = mirror.pid();
        mirror.killWhenSettled(() -> countsPublishedOfAllCommitted(mirror));
        stage.accept(String.format(Locale.ROOT, "FAULT: kill -9 of the mirror maker (pid %d) while dc2's front-ends "
            + "sent, %,d records in offline", pid, records(offline)));
    }

    /** Whether the mirror's audit counts in the offline cluster are those of every record its groups committed. */
    private boolean countsPublishedOfAllCommitted(MirrorProcess mirror) {
        Map<String, Long> counted = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (AuditEntry entry : AuditReader.read(offline.bootstrapServers(), offline.registryUrl(),
                AuditConfig.DEFAULT_TOPIC, Pattern.compile(".*"), 0, Long.MAX_VALUE)) {
            if (entry.window() != null && ids.add(entry.id())) {
                counted.merge(entry.tier() + "/" + entry.cluster(), entry.window().count() + entry.window().noTimeCount(),
                    Long::sum);
            }
        }
        for (DataCentre dc : live) {
            long committed = mirror.committed(dc, topics);
            if (counted.getOrDefault("live/" + dc.name(), 0L) != committed
                    || counted.getOrDefault("offline/" + dc.name(), 0L) != committed) {
                return false;
            }
        }
        return true;
    }

    /** Waits until {@code count} reaches {@code target}; a failed sender ends the wait with its failure. */
    private static void await(LongSupplier count, long target, Future<Long> sender) throws Exception {
        long deadline = System.currentTimeMillis() + TRIGGER_LIMIT_MS;
        while (count.getAsLong() < target) {
            if (sender.isDone()) {
                try {
                    sender.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("Waited " + TRIGGER_LIMIT_MS / 1000 + " s for " + target + " records, "
                    + "there are " + count.getAsLong());
            }
            Thread.sleep(20);
        }
    }

    /** Records in the event topics of {@code dc}, from each partition's first offset to its end. */
    private long records(DataCentre dc) {
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                dc.bootstrapServers())))) {
            long records = 0;
            for (String topic : topics) {
                for (int p = 0; p < reader.partitionCount(topic); p++) {
                    TopicPartition tp = new TopicPartition(topic, p);
                    records += reader.latestOffset(tp) - reader.earliestOffset(tp);
                }
            }
            return records;
        } catch (RuntimeException notThereYet) {
            return 0;   // a topic the mirror has not created offline yet
        }
    }
}
