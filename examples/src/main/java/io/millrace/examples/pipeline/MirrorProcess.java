package io.millrace.examples.pipeline;

import io.millrace.audit.AuditConfig;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.GroupOffsets;
import io.millrace.mirror.MirrorMakerConfig;
import io.millrace.mirror.SourceCluster;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's mirror maker as an operator runs it, {@code MirrorMakerMain} in a JVM of its own with its
 * configuration files, so that it can be killed with SIGKILL (no flush, no commit, no last audit counts)
 * and started again, when it goes on from the offsets its group last committed. Its settings are
 * {@link MirrorStage}'s; its output goes to {@code mirror-<n>.log} in its directory.
 */
final class MirrorProcess implements AutoCloseable {

    private static final long WAIT_LIMIT_MS = 120_000;
    private static final Pattern STOPPED = Pattern.compile("Mirror stopped: .* (\\d+) duplicates");

    private final List<DataCentre> live;
    private final DataCentre offline;
    private final List<String> topics;
    private final Path dir;
    private final List<String> command;
    private Process process;
    private int starts;

    private MirrorProcess(List<DataCentre> live, DataCentre offline, List<String> topics, Path dir, List<String> command) {
        this.live = live;
        this.offline = offline;
        this.topics = topics;
        this.dir = dir;
        this.command = command;
    }

    /** Writes the configuration files under {@code dir} and starts the mirror. */
    static MirrorProcess start(List<DataCentre> live, DataCentre offline, List<String> eventTopics, Path dir)
        throws IOException {
        Files.createDirectories(dir);
        List<String> topics = new ArrayList<>(eventTopics);
        topics.add(AuditConfig.DEFAULT_TOPIC);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-Dmillrace.log.level=INFO"));
        String logging = System.getProperty("log4j.configuration");
        if (logging != null) {
            command.add("-Dlog4j.configuration=" + logging);   // the launcher's logging, at INFO: its log is a file
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.millrace.mirror.tools.MirrorMakerMain"));
        for (DataCentre dc : live) {
            command.add("--consumer.config");
            command.add(write(dir.resolve(dc.name() + ".properties"), Map.of(
                SourceCluster.CLUSTER_NAME_CONFIG, dc.name(),
                "bootstrap.servers", dc.bootstrapServers(),
                "zookeeper.connect", dc.zookeeperConnect(),
                ConsumerConfig.GROUP_ID_CONFIG, MirrorStage.group(dc, offline),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest",
                // a killed member's partitions are free again once its session expires
                ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, "4000",
                ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG, "500",
                SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, dc.registryUrl())).toString());
        }
        command.addAll(List.of("--producer.config", write(dir.resolve(offline.name() + ".properties"), Map.of(
            "bootstrap.servers", offline.bootstrapServers(), "linger.ms", "5",
            SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, offline.registryUrl())).toString(),
            "--whitelist", String.join("|", topics),
            "--override", MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG + "=1000",
            "--override", MirrorMakerConfig.AUDIT_ENABLED_CONFIG + "=true",
            // the counts of what a commit covered go out within a tenth of a second of it (see killWhenSettled)
            "--override", AuditConfig.AUDIT_PUBLISH_INTERVAL_MS_CONFIG + "=100"));
        MirrorProcess mirror = new MirrorProcess(live, offline, topics, dir, command);
        mirror.start();
        return mirror;
    }

    private static Path write(Path file, Map<String, String> settings) throws IOException {
        Properties props = new Properties();
        props.putAll(settings);
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        return file;
    }

    /** Starts the mirror (again): it goes on from its groups' committed offsets. */
    void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("The mirror is running");
        }
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log(starts++).toFile()).start();
    }

    long pid() {
        return process.pid();
    }

    private Path log(int start) {
        return dir.resolve("mirror-" + start + ".log");
    }

    /**
     * SIGKILL at a moment when {@code settled} holds, checked while the mirror is paused (SIGSTOP), so that
     * nothing changes between the check and the kill; a mirror not settled yet runs on (SIGCONT) for a moment
     * and is checked again.
     */
    void killWhenSettled(BooleanSupplier settled) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        while (true) {
            signal("STOP");
            if (settled.getAsBoolean()) {
                kill();
                return;
            }
            signal("CONT");
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("The mirror did not settle within " + WAIT_LIMIT_MS / 1000 + " s");
            }
            Thread.sleep(50);
        }
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** The offsets the mirror's group in {@code dc} has committed, summed over {@code topics}' partitions. */
    long committed(DataCentre dc, List<String> topics) {
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect",
                dc.zookeeperConnect(), "bootstrap.servers", dc.bootstrapServers())))) {
            return offsets.describe(group(dc)).stream().filter(row -> topics.contains(row.topic()))
                .mapToLong(row -> Math.max(0, row.committedOffset())).sum();
        }
    }

    /** SIGKILL: the mirror stops at once, with what it copied since its last commit uncommitted. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("The mirror (pid " + process.pid() + ") outlived SIGKILL for 30 s");
        }
    }

    /**
     * SIGTERM: the mirror sends and commits what it took, publishes its last audit counts and leaves its
     * groups.
     *
     * @return the records it found already offline after taking its partitions over (its Duplicates total)
     */
    long stop() throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("The mirror did not stop within 60 s of SIGTERM; see " + log(starts - 1));
        }
        Matcher stopped = STOPPED.matcher(Files.readString(log(starts - 1)));
        // 143: the JVM's status after the shutdown hook SIGTERM ran, which is the mirror's clean stop
        if ((process.exitValue() != 0 && process.exitValue() != 143) || !stopped.find()) {
            throw new IllegalStateException("The mirror stopped with status " + process.exitValue() + "; see "
                + log(starts - 1));
        }
        return Long.parseLong(stopped.group(1));
    }

    /**
     * Waits until the group of {@code dc} has committed {@code partition} of {@code topic} up to its log end.
     *
     * @return the committed offset
     */
    long awaitCommitted(DataCentre dc, String topic, int partition) throws InterruptedException {
        return awaitCommitted(dc, List.of(topic), row -> row.topic().equals(topic) && row.partition() == partition);
    }

    /**
     * Waits until every partition of the mirrored topics in every live data centre is committed up to its log
     * end: everything the live clusters hold now is offline. The live clusters must be quiet.
     */
    void awaitCaughtUp() throws InterruptedException {
        for (DataCentre dc : live) {
            awaitCommitted(dc, topics, row -> topics.contains(row.topic()));
        }
    }

    /**
     * Waits until every selected partition of the group's, of each of {@code topics}, is committed to its end
     * (or is empty); returns the committed total.
     */
    private long awaitCommitted(DataCentre dc, List<String> topics, Predicate<GroupOffsets.PartitionLag> selected)
        throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(Map.of("zookeeper.connect",
                dc.zookeeperConnect(), "bootstrap.servers", dc.bootstrapServers())))) {
            while (true) {
                List<GroupOffsets.PartitionLag> rows = offsets.describe(group(dc)).stream().filter(selected).toList();
                boolean everyTopic = rows.stream().map(GroupOffsets.PartitionLag::topic).distinct().count() == topics.size();
                if (everyTopic && rows.stream().allMatch(r -> r.logEndOffset() == 0 || r.committedOffset() >= r.logEndOffset())) {
                    return rows.stream().mapToLong(GroupOffsets.PartitionLag::committedOffset).sum();
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("The mirror stopped with status " + process.exitValue() + "; see "
                        + log(starts - 1));
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("The mirror did not commit " + dc.name() + "'s records within "
                        + WAIT_LIMIT_MS / 1000 + " s: " + rows + "; see " + log(starts - 1));
                }
                Thread.sleep(200);
            }
        }
    }

    private String group(DataCentre dc) {
        return MirrorStage.group(dc, offline);
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
