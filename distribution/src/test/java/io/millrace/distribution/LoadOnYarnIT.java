package io.millrace.distribution;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;

/**
 * {@code bin/millrace load} from the unpacked release against a Hadoop cluster in another process, as a
 * user with a cluster runs it: only {@code HADOOP_CONF_DIR} points at the cluster. The cluster's class
 * path is Hadoop's alone, so the job runs only if the loader ships its own jars; the tasks run in YARN
 * containers (a {@code job_} id, not the LocalJobRunner's {@code job_local}), the command shows progress
 * and counters, and the events land in HDFS exactly once.
 */
public class LoadOnYarnIT {

    private static final Schema EVENT = SchemaBuilder.record("ReleaseEvent").namespace("io.millrace.release.test")
        .fields()
        .name(EventHeaders.HEADER_FIELD).type(EventHeaders.SCHEMA).noDefault()
        .requiredString("payload")
        .endRecord();
    private static final long BASE_TIME_MS = 1_706_695_200_000L;   // 2024-01-31T10:00:00Z
    private static final int PER_PARTITION = 500;

    private final TemporaryFolder temp = new TemporaryFolder();
    private final Release release = new Release(temp);
    private Process hadoop;

    @Rule
    public final TestRule rules = RuleChain.outerRule(temp).around(release);

    @After
    public void stopHadoop() throws Exception {
        if (hadoop != null) {
            hadoop.getOutputStream().close();
            if (!hadoop.waitFor(60, TimeUnit.SECONDS)) {
                hadoop.destroyForcibly();
            }
        }
    }

    @Test
    public void theReleasesLoadRunsOnYarnShipsItsJarsAndLoadsEveryEventOnce() throws Exception {
        Release.Servers servers = release.startServers();
        Path confDir = temp.newFolder("hadoop-conf").toPath();
        String hdfs = startHadoop(confDir);
        assertEquals(0, release.run(null, "topics", "--bootstrap-server", servers.bootstrap(), "--create",
            "--topic", "page-views", "--partitions", "2").exit());
        Set<String> sent = produce(servers, "page-views");

        Release.Run load = load(servers, confDir, hdfs);
        assertEquals(load.err(), 0, load.exit());
        assertTrue("ran on YARN: " + load.err(), load.err().matches("(?s).*Running job: job_\\d+_\\d+.*"));
        assertFalse("not on the LocalJobRunner", load.err().contains("job_local"));
        assertTrue("progress shows", load.err().contains("map 100%"));
        assertTrue("counters show", load.err().contains("MESSAGES_READ=" + sent.size()));
        assertTrue("the loader's jars went with the job", load.err().contains("Shipping"));
        assertTrue(load.out(), load.out().replace(" ", "").contains("\"records\":" + sent.size()));

        List<String> loaded = readLoaded(confDir, hdfs + "/millrace/data");
        assertEquals("every event once", sent.size(), loaded.size());
        assertEquals(sent, new HashSet<>(loaded));

        Release.Run again = load(servers, confDir, hdfs);
        assertEquals(again.err(), 0, again.exit());
        assertTrue(again.out(), again.out().contains("nothing new to load"));
        assertFalse("nothing ran Maven", release.mavenWasCalled());
    }

    private String startHadoop(Path confDir) throws Exception {
        String classPath = Files.readString(Path.of("target", "hadoop.classpath")).trim() + File.pathSeparator
            + Path.of("target", "test-classes").toAbsolutePath();
        Path log = temp.getRoot().toPath().resolve("hadoop.log");
        hadoop = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "-cp", classPath, MiniHadoop.class.getName(), confDir.toString(), temp.newFolder("hadoop-work").toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!Files.exists(confDir.resolve("ready"))) {
            if (!hadoop.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the Hadoop cluster did not come up: " + Files.readString(log));
            }
            Thread.sleep(250);
        }
        return Files.readString(confDir.resolve("ready")).trim();
    }

    private Release.Run load(Release.Servers servers, Path confDir, String hdfs) throws Exception {
        return release.run(Map.of("HADOOP_CONF_DIR", confDir.toString()), null, 600, "load", "--topics", "page-views",
            "--override", "bootstrap.servers=" + servers.bootstrap(),
            "--override", "schema.registry.url=" + servers.registryUrl(),
            "--override", "millrace.hadoop.state.dir=" + hdfs + "/millrace/state",
            "--override", "millrace.hadoop.data.root=" + hdfs + "/millrace/data");
    }

    private static Set<String> produce(Release.Servers servers, String topic) throws Exception {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", servers.bootstrap());
        props.put("auto.register.schemas", true);
        Set<String> sent = new HashSet<>();
        try (AvroEventProducer<String, GenericRecord> producer = new AvroEventProducer<>(props, new StringSerializer(),
                new SchemaRegistryClient(Map.of("schema.registry.url", servers.registryUrl())))) {
            List<Future<?>> acks = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                for (int i = 0; i < PER_PARTITION; i++) {
                    String payload = topic + "/" + p + "/" + i;
                    acks.add(producer.send(new ProducerRecord<>(topic, p, payload, event(BASE_TIME_MS + i * 20_000L, payload))));
                    sent.add(payload);
                }
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
        return sent;
    }

    private static GenericRecord event(long timeMs, String payload) {
        GenericRecord header = new GenericData.Record(EventHeaders.SCHEMA);
        header.put(EventHeaders.TIME_FIELD, timeMs);
        header.put(EventHeaders.SERVICE_FIELD, "release-test");
        GenericRecord event = new GenericData.Record(EVENT);
        event.put(EventHeaders.HEADER_FIELD, header);
        event.put("payload", payload);
        return event;
    }

    /** The payloads of every event in the Avro files under {@code dataRoot}, read through HDFS. */
    private static List<String> readLoaded(Path confDir, String dataRoot) throws Exception {
        Configuration conf = new Configuration();
        conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve("core-site.xml").toUri()));
        conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve("hdfs-site.xml").toUri()));
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(dataRoot);
        List<String> payloads = new ArrayList<>();
        try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
            RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
            while (files.hasNext()) {
                org.apache.hadoop.fs.Path file = files.next().getPath();
                if (!file.getName().endsWith(".avro")) {
                    continue;
                }
                try (InputStream in = fs.open(file);
                     DataFileStream<GenericRecord> records = new DataFileStream<>(in, new GenericDatumReader<>())) {
                    for (GenericRecord record : records) {
                        payloads.add(record.get("payload").toString());
                    }
                }
            }
        }
        return payloads;
    }
}
