package io.millrace.bench.compare;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Apache Kafka's MirrorMaker 2 in dedicated mode ({@code org.apache.kafka.connect.mirror.MirrorMaker}) in
 * a JVM of its own, on the classpath that the {@code bench/mirror-maker-2} module copies to its
 * {@code target/lib} (Kafka Connect brings Jetty 12, the bench's own classpath Jetty 9). It mirrors one
 * topic from a source cluster named {@code alias} into {@code offline}, where the copy is named
 * {@code <alias>.<topic>} (its default replication policy); a fresh alias per run gives a fresh target
 * topic and fresh internal topics, so each run copies from the first offset. The producer gets the
 * Millrace mirror's batching ({@code linger.ms=5}, {@code batch.size=262144}) and its requests in flight
 * (idempotent, five, where Kafka Connect's default is one); Kafka Connect's defaults otherwise (acks=all).
 */
final class MirrorMaker2Process extends BrokerProcess {

    static final String LIB_PROPERTY = "millrace.bench.mm2.lib";
    static final Path DEFAULT_LIB = Path.of("bench", "mirror-maker-2", "target", "lib");

    private final String alias;
    private final String source;
    private final String offline;
    private final String topic;

    MirrorMaker2Process(Path parent, Path processLog, String alias, String source, String offline, String topic)
        throws IOException {
        super("mirror-maker-2", parent, processLog, "1g");
        this.alias = alias;
        this.source = source;
        this.offline = offline;
        this.topic = topic;
    }

    /** Where MirrorMaker 2's jars are, or null when they have not been built. */
    static Path lib() {
        Path lib = Path.of(System.getProperty(LIB_PROPERTY, DEFAULT_LIB.toString())).toAbsolutePath();
        try (var jars = Files.list(lib)) {
            return jars.anyMatch(p -> p.getFileName().toString().startsWith("connect-mirror-")) ? lib : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    void start() throws Exception {
        Path lib = lib();
        if (lib == null) {
            throw new IllegalStateException("MirrorMaker 2's classpath is not built: mvn -B package -pl bench/mirror-maker-2");
        }
        Path config = home.resolve("mm2.properties");
        write(config, settings());
        Path logging = home.resolve("log4j.properties");
        Properties log4j = new Properties();
        log4j.setProperty("log4j.rootLogger", "WARN, stdout");
        log4j.setProperty("log4j.appender.stdout", "org.apache.log4j.ConsoleAppender");
        log4j.setProperty("log4j.appender.stdout.layout", "org.apache.log4j.PatternLayout");
        log4j.setProperty("log4j.appender.stdout.layout.ConversionPattern", "%d %-5p %c{1}: %m%n");
        write(logging, log4j);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xms" + heap, "-Xmx" + heap, "-Dlog4j.configuration=file:" + logging));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", lib + "/*", "org.apache.kafka.connect.mirror.MirrorMaker", config.toString()));
        process = builder(command).start();
    }

    private Properties settings() {
        Properties p = new Properties();
        p.setProperty("clusters", alias + ", offline");
        p.setProperty(alias + ".bootstrap.servers", source);
        p.setProperty("offline.bootstrap.servers", offline);
        p.setProperty(alias + "->offline.enabled", "true");
        p.setProperty(alias + "->offline.topics", topic);
        p.setProperty("offline->" + alias + ".enabled", "false");
        p.setProperty("tasks.max", "1");
        for (String internal : List.of("replication.factor", "checkpoints.topic.replication.factor",
                "heartbeats.topic.replication.factor", "offset-syncs.topic.replication.factor",
                "offset.storage.replication.factor", "status.storage.replication.factor", "config.storage.replication.factor")) {
            p.setProperty(internal, "1");
        }
        // only the copy is measured: no heartbeats, checkpoints or group-offset syncs competing for the cores
        p.setProperty("emit.heartbeats.enabled", "false");
        p.setProperty("emit.checkpoints.enabled", "false");
        p.setProperty("sync.group.offsets.enabled", "false");
        p.setProperty("sync.topic.acls.enabled", "false");
        p.setProperty("refresh.topics.interval.seconds", "1");
        p.setProperty(alias + ".consumer.auto.offset.reset", "earliest");
        p.setProperty("offline.producer.linger.ms", "5");
        p.setProperty("offline.producer.batch.size", "262144");
        p.setProperty("offline.producer.enable.idempotence", "true");
        p.setProperty("offline.producer.max.in.flight.requests.per.connection", "5");
        return p;
    }

    private static void write(Path file, Properties props) throws IOException {
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
    }

    /** The name MirrorMaker 2 gives the copy of the topic in the offline cluster. */
    String targetTopic() {
        return alias + "." + topic;
    }

    @Override
    String bootstrapServers() {
        return offline;
    }

    @Override
    Path logDir() {
        return home;
    }
}
