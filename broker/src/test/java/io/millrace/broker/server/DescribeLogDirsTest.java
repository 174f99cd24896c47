package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;

/**
 * Kafka's AdminClient {@code describeLogDirs} and {@code describeReplicaLogDirs} (what
 * kafka-log-dirs runs) against a broker with two log directories: each directory with its
 * partitions and their sizes, the volume's space, and a failed directory shown as failed.
 */
public class DescribeLogDirsTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final TemporaryFolder temp = new TemporaryFolder();
    private final TwoDirectoryBroker disks = new TwoDirectoryBroker(temp, zookeeper);

    @Rule
    public final TestRule rules = RuleChain.outerRule(temp).around(zookeeper).around(disks);

    private Path dirA;
    private Path dirB;
    private Broker broker;
    private Admin admin;

    @Before
    public void setUp() throws Exception {
        broker = disks.broker();
        dirA = disks.dirA();
        dirB = disks.dirB();
        admin = Admin.create(Map.of("bootstrap.servers", "127.0.0.1:" + broker.boundPort()));
        broker.cluster().createTopic("sized", 2, Map.of()).get(30, TimeUnit.SECONDS);
        Conditions.waitUntil(() -> log(0) != null && log(1) != null, "both logs to open");
    }

    @After
    public void tearDown() {
        if (admin != null) {
            admin.close();
        }
    }

    @Test(timeout = 60_000)
    public void eachDirectoryListsItsPartitionsWithTheirSizesAndItsVolumesSpace() throws Exception {
        produce(0, 300);
        produce(1, 100);
        assertNotEquals("the two partitions are spread over both directories", log(0).logDir(), log(1).logDir());

        Map<String, LogDirDescription> dirs = describe();
        assertEquals(Map.of(dirA.toString(), 1, dirB.toString(), 1),
            Map.of(dirA.toString(), dirs.get(dirA.toString()).replicaInfos().size(),
                dirB.toString(), dirs.get(dirB.toString()).replicaInfos().size()));
        for (int partition = 0; partition < 2; partition++) {
            LogDirDescription dir = dirs.get(log(partition).logDir().toString());
            assertNull(dir.error());
            ReplicaInfo replica = dir.replicaInfos().get(new TopicPartition("sized", partition));
            assertEquals(log(partition).size(), replica.size());
            assertEquals(0L, replica.offsetLag());
            assertFalse(replica.isFuture());
            assertTrue(dir.totalBytes().isPresent() && dir.usableBytes().isPresent());
            assertTrue(dir.usableBytes().getAsLong() <= dir.totalBytes().getAsLong());
            assertTrue(dir.totalBytes().getAsLong() > 0);
        }
        assertTrue("three times the records, more bytes",
            log(0).size() > 2 * log(1).size() && log(1).size() > 0);
    }

    @Test(timeout = 60_000)
    public void aReplicasDirectoryIsFoundAndAPartitionNotHereHasNone() throws Exception {
        Map<TopicPartitionReplica, ReplicaLogDirInfo> found = admin.describeReplicaLogDirs(List.of(
            new TopicPartitionReplica("sized", 1, 0), new TopicPartitionReplica("sized", 7, 0),
            new TopicPartitionReplica("absent", 0, 0))).all().get(30, TimeUnit.SECONDS);
        assertEquals(log(1).logDir().toString(), found.get(new TopicPartitionReplica("sized", 1, 0)).getCurrentReplicaLogDir());
        assertNull(found.get(new TopicPartitionReplica("sized", 7, 0)).getCurrentReplicaLogDir());
        assertNull(found.get(new TopicPartitionReplica("absent", 0, 0)).getCurrentReplicaLogDir());
    }

    @Test(timeout = 60_000)
    public void aFailedDirectoryIsAnsweredKafkaStorageErrorAndTheOtherStillDescribed() throws Exception {
        produce(0, 10);
        produce(1, 10);
        int onA = log(0).logDir().equals(dirA) ? 0 : 1;
        disks.failDiskA();
        ExecutionException refused = null;
        try {
            produce(onA, 1);
        } catch (ExecutionException e) {
            refused = e;
        }
        assertTrue("a produce to the failed directory fails", refused != null);
        Conditions.waitUntil(() -> broker.logManager().failureChannel().isOffline(dirA), "directory A to go offline");

        Map<String, LogDirDescription> dirs = describe();
        assertTrue(dirs.get(dirA.toString()).error() instanceof KafkaStorageException);
        assertTrue(dirs.get(dirA.toString()).replicaInfos().isEmpty());
        assertNull(dirs.get(dirB.toString()).error());
        assertEquals(log(1 - onA).size(),
            dirs.get(dirB.toString()).replicaInfos().get(new TopicPartition("sized", 1 - onA)).size());
    }

    private Map<String, LogDirDescription> describe() throws Exception {
        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(0)).allDescriptions().get(30, TimeUnit.SECONDS)
            .get(0);
        assertEquals(2, dirs.size());
        return dirs;
    }

    private Log log(int partition) {
        return broker.logManager().getLog("sized", partition).orElse(null);
    }

    private void produce(int partition, int count) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", "127.0.0.1:" + broker.boundPort());
        props.put("key.serializer", StringSerializer.class.getName());
        props.put("value.serializer", StringSerializer.class.getName());
        props.put("retries", "0");
        props.put("delivery.timeout.ms", "5000");
        props.put("request.timeout.ms", "4000");
        props.put("linger.ms", "0");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>("sized", partition, "k" + i, "value " + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }
}
