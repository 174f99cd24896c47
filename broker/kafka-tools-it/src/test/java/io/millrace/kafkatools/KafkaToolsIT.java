package io.millrace.kafkatools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Apache Kafka's command-line tools, unchanged, against two Millrace brokers: what an operator
 * types on day one (kafka-topics, kafka-configs, kafka-consumer-groups, kafka-delete-records,
 * kafka-log-dirs, kafka-get-offsets, the console producer and consumer) and the tools Kafka's own
 * system tests drive: the verifiable producer and consumer, with a consumer group, the producer and
 * consumer performance tools, the end-to-end latency tool and the client-compatibility check;
 * Kafka's transactional message copier, then `kafka-transactions list` and `describe`, and
 * `kafka-transactions describe-producers`; `kafka-reassign-partitions`; and kafka-acls, which finds
 * security disabled, as on a Kafka broker with no authorizer.
 */
public class KafkaToolsIT {

    private static LocalCluster cluster;
    private static String bootstrap;

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @BeforeClass
    public static void startBrokers() throws Exception {
        cluster = LocalCluster.start(2, Map.of("group.min.session.timeout.ms", 1_000));
        bootstrap = cluster.bootstrapServers();
    }

    @AfterClass
    public static void stopBrokers() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test(timeout = 300_000)
    public void kafkaTopicsDescribesLeadersReplicasAndInSyncReplicas() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "mirrored", "--partitions", "2", "--replication-factor", "2");
        String described = tool(KafkaTool.TOPICS, "--describe", "--topic", "mirrored").output();
        assertTrue(described, described.contains("ReplicationFactor: 2"));
        for (String partition : new String[] {"0", "1"}) {
            assertTrue(described, Pattern.compile("Partition: " + partition
                + "\\tLeader: (\\d)\\tReplicas: \\1,(\\d)\\tIsr: \\1,\\2").matcher(described).find());
        }
    }

    @Test(timeout = 300_000)
    public void kafkaTopicsCreatesListsDescribesAndAddsPartitions() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "operated", "--partitions", "3", "--replication-factor", "1");
        assertTrue(tool(KafkaTool.TOPICS, "--list").lines().contains("operated"));
        String described = tool(KafkaTool.TOPICS, "--describe", "--topic", "operated").output();
        assertTrue(described, described.contains("PartitionCount: 3"));

        tool(KafkaTool.TOPICS, "--alter", "--topic", "operated", "--partitions", "5");
        described = tool(KafkaTool.TOPICS, "--describe", "--topic", "operated").output();
        assertTrue(described, described.contains("PartitionCount: 5"));

        tool(KafkaTool.TOPICS, "--create", "--topic", "placed", "--replica-assignment", "1:0,0:1");
        described = tool(KafkaTool.TOPICS, "--describe", "--topic", "placed").output();
        assertTrue(described, described.contains("Partition: 0\tLeader: 1\tReplicas: 1,0\t"));
        assertTrue(described, described.contains("Partition: 1\tLeader: 0\tReplicas: 0,1\t"));
    }

    @Test(timeout = 300_000)
    public void kafkaConfigsChangesATopicsRetentionAndDescribesABroker() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "configured", "--partitions", "1", "--replication-factor", "1");
        tool(KafkaTool.CONFIGS, "--entity-type", "topics", "--entity-name", "configured", "--alter",
            "--add-config", "retention.ms=3600000,max.message.bytes=65536");
        String topic = tool(KafkaTool.CONFIGS, "--entity-type", "topics", "--entity-name", "configured", "--describe")
            .output();
        assertTrue(topic, topic.contains("retention.ms=3600000"));
        assertTrue(topic, topic.contains("max.message.bytes=65536"));

        tool(KafkaTool.CONFIGS, "--entity-type", "topics", "--entity-name", "configured", "--alter",
            "--delete-config", "max.message.bytes");
        topic = tool(KafkaTool.CONFIGS, "--entity-type", "topics", "--entity-name", "configured", "--describe")
            .output();
        assertTrue(topic, topic.contains("retention.ms=3600000") && !topic.contains("max.message.bytes=65536"));

        String broker = tool(KafkaTool.CONFIGS, "--entity-type", "brokers", "--entity-name", "0", "--describe", "--all")
            .output();
        assertTrue(broker, broker.contains("log.segment.bytes="));
    }

    @Test(timeout = 300_000)
    public void verifiableClientsAndKafkaConsumerGroupsShareAGroupsOffsets() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "verified", "--partitions", "4", "--replication-factor", "1");
        KafkaTool.Run produced = tool(KafkaTool.VERIFIABLE_PRODUCER, "--topic", "verified", "--max-messages", "4000",
            "--acks", "-1");
        assertEquals(produced.output(), 4000, count(produced, "\"name\":\"producer_send_success\""));

        KafkaTool.Run consumed = tool(KafkaTool.VERIFIABLE_CONSUMER, "--topic", "verified", "--group-id", "verifiers",
            "--max-messages", "4000", "--reset-policy", "earliest");
        assertEquals(consumed.output(), 4000, recordsConsumed(consumed));
        assertEquals(consumed.output(), 0, count(consumed, "\"success\":false"));

        assertTrue(tool(KafkaTool.CONSUMER_GROUPS, "--list").lines().contains("verifiers"));
        KafkaTool.Run describe = tool(KafkaTool.CONSUMER_GROUPS, "--describe", "--group", "verifiers");
        List<long[]> described = offsetsAndEnds(describe);
        // as on Kafka, a group without members shows the partitions it has committed, here those with records
        assertTrue(describe.output(), !described.isEmpty());
        long total = 0;
        for (long[] row : described) {
            assertEquals("lag of a partition", row[1], row[0]);
            total += row[0];
        }
        assertEquals(describe.output(), 4000, total);

        tool(KafkaTool.CONSUMER_GROUPS, "--reset-offsets", "--group", "verifiers", "--topic", "verified",
            "--to-earliest", "--execute");
        for (long[] row : offsetsAndEnds(tool(KafkaTool.CONSUMER_GROUPS, "--describe", "--group", "verifiers"))) {
            assertEquals("offset after --to-earliest", 0, row[0]);
        }
        KafkaTool.Run again = tool(KafkaTool.VERIFIABLE_CONSUMER, "--topic", "verified", "--group-id", "verifiers",
            "--max-messages", "4000");
        assertEquals("a reset group reads everything again", 4000, recordsConsumed(again));

        String deleted = tool(KafkaTool.CONSUMER_GROUPS, "--delete", "--group", "verifiers").output();
        assertTrue(deleted, deleted.contains("successful"));
        assertTrue(!tool(KafkaTool.CONSUMER_GROUPS, "--list").lines().contains("verifiers"));
    }

    @Test(timeout = 300_000)
    public void kafkaDeleteRecordsMovesTheLowWatermark() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "trimmed", "--partitions", "1", "--replication-factor", "1");
        tool(KafkaTool.VERIFIABLE_PRODUCER, "--topic", "trimmed", "--max-messages", "500", "--acks", "-1");
        Path offsets = temp.newFile("offsets.json").toPath();
        Files.writeString(offsets, "{\"partitions\":[{\"topic\":\"trimmed\",\"partition\":0,\"offset\":200}],\"version\":1}");
        String answer = tool(KafkaTool.DELETE_RECORDS, "--offset-json-file", offsets.toString()).output();
        assertTrue(answer, answer.contains("low_watermark: 200"));
    }

    @Test(timeout = 300_000)
    public void kafkaLogDirsShowsEveryReplicasSizeOnEachBroker() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "stored", "--partitions", "2", "--replication-factor", "2");
        tool(KafkaTool.VERIFIABLE_PRODUCER, "--topic", "stored", "--max-messages", "1000", "--acks", "-1");
        String described = tool(KafkaTool.LOG_DIRS, "--describe", "--topic-list", "stored").output();
        // one directory per broker: {"broker":0,"logDirs":[{"partitions":[...],"error":null,"logDir":"..."}]}
        Matcher broker = Pattern.compile("\\{\"broker\":(\\d+),\"logDirs\":\\[\\{\"partitions\":\\[([^\\]]*)\\],"
            + "\"error\":null,\"logDir\":\"[^\"]+\"\\}\\]").matcher(described);
        Map<String, Map<String, Long>> sizes = new TreeMap<>();
        while (broker.find()) {
            Matcher partition = Pattern.compile("\"partition\":\"(stored-\\d)\",\"size\":(\\d+),\"offsetLag\":0,"
                + "\"isFuture\":false").matcher(broker.group(2));
            Map<String, Long> replicas = new TreeMap<>();
            while (partition.find()) {
                replicas.put(partition.group(1), Long.parseLong(partition.group(2)));
            }
            sizes.put(broker.group(1), replicas);
        }
        assertEquals(described, List.of("0", "1"), List.copyOf(sizes.keySet()));
        assertEquals(described, List.of("stored-0", "stored-1"), List.copyOf(sizes.get("0").keySet()));
        // acks=-1: both replicas of a partition hold the same batches
        assertEquals(described, sizes.get("0"), sizes.get("1"));
        // a record of the verifiable producer takes at least 5 bytes in a batch
        assertTrue(described, sizes.get("0").values().stream().mapToLong(Long::longValue).sum() > 1000 * 5);
    }

    @Test(timeout = 300_000)
    public void kafkaLeaderElectionGivesLeadershipBackToPreferredReplicasAfterARestart() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "elected", "--partitions", "2", "--replication-factor", "2");
        // a clean shutdown hands broker 1's leaderships to broker 0; the controller gives them back
        // by itself only every leader.imbalance.check.interval.seconds (300)
        cluster.stopBroker(1);
        cluster.startBroker(1);
        Pattern row = Pattern.compile("Partition: (\\d)\tLeader: (\\d)\tReplicas: (\\d),(\\d)\tIsr: (\\d,\\d)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String described;
        do {
            Thread.sleep(200);
            described = tool(KafkaTool.TOPICS, "--describe", "--topic", "elected").output();
        } while (count(row, described) < 2 && System.nanoTime() < deadline);
        assertEquals(described, 2, count(row, described));
        assertTrue("broker 0 leads both partitions:\n" + described, described.contains("Leader: 0\tReplicas: 1,0"));

        String moved = String.valueOf(partitionPreferring(described, 1));
        String elected = tool(KafkaTool.LEADER_ELECTION, "--election-type", "preferred", "--topic", "elected",
            "--partition", moved).output();
        assertTrue(elected, elected.contains("Successfully completed leader election (PREFERRED) for partitions elected-"));
        String after = tool(KafkaTool.TOPICS, "--describe", "--topic", "elected").output();
        Matcher m = row.matcher(after);
        while (m.find()) {
            assertEquals("each partition led by its first replica:\n" + after, m.group(3), m.group(2));
        }

        String again = tool(KafkaTool.LEADER_ELECTION, "--election-type", "preferred", "--topic", "elected",
            "--partition", moved).output();
        assertTrue(again, again.contains("Valid replica already elected for partitions elected-" + moved));
    }

    private static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static int partitionPreferring(String described, int broker) {
        Matcher m = Pattern.compile("Partition: (\\d)\tLeader: \\d\tReplicas: " + broker + ",").matcher(described);
        assertTrue(described, m.find());
        return Integer.parseInt(m.group(1));
    }

    @Test(timeout = 300_000)
    public void kafkaPerformanceToolsAndEndToEndLatencyRunToTheEnd() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "timed", "--partitions", "2", "--replication-factor", "2");
        String produced = tool(KafkaTool.PRODUCER_PERFORMANCE, "--topic", "timed", "--num-records", "20000",
            "--record-size", "100", "--throughput", "-1", "--command-property", "acks=all").output();
        assertTrue(produced, produced.contains("20000 records sent"));

        String consumed = tool(KafkaTool.CONSUMER_PERFORMANCE, "--topic", "timed", "--num-records", "20000",
            "--timeout", "60000").output();
        assertTrue(consumed, Pattern.compile(", 20000, ").matcher(consumed).find());

        assertTrue(tool(KafkaTool.GET_OFFSETS, "--topic", "timed").lines().stream()
            .filter(l -> l.matches("timed:[01]:\\d+")).mapToLong(l -> Long.parseLong(l.substring(8))).sum() == 20000);

        String latency = KafkaTool.run(KafkaTool.END_TO_END_LATENCY, List.of("--bootstrap-server", bootstrap, "--topic",
            "timed-latency", "--num-records", "500", "--producer-acks", "all", "--record-size", "100")).expectSuccess().output();
        assertTrue(latency, latency.contains("Avg latency") && latency.contains("99th"));
    }

    /**
     * The client-compatibility check Kafka's system tests run against each broker version, with every
     * feature it knows expected to work: offsetsForTimes, the cluster id, fetches larger than
     * max.partition.fetch.bytes (KIP-74), the AdminClient's node list, topic creation, describeAcls
     * (which a broker without an authorizer passes by answering SECURITY_DISABLED), describeConfigs
     * and the idempotent producer.
     */
    @Test(timeout = 300_000)
    public void kafkasClientCompatibilityTestPassesWithEveryFeatureExpected() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "compatible", "--partitions", "1", "--replication-factor", "2");
        String output = tool(KafkaTool.CLIENT_COMPATIBILITY, "--topic", "compatible", "--offsets-for-times-supported", "true",
            "--cluster-id-supported", "true", "--expect-record-too-large-exception", "false", "--num-cluster-nodes", "2",
            "--create-topics-supported", "true", "--describe-acls-supported", "true", "--describe-configs-supported", "true",
            "--idempotent-producer-supported", "true").output();
        assertTrue(output, output.contains("SUCCESS"));
    }

    @Test(timeout = 300_000)
    public void kafkaTransactionsDescribeProducersShowsAnIdempotentProducersLastSequence() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "sequenced", "--partitions", "1", "--replication-factor", "2");
        tool(KafkaTool.PRODUCER_PERFORMANCE, "--topic", "sequenced", "--num-records", "1000", "--record-size", "10",
            "--throughput", "-1", "--command-property", "acks=all", "--command-property", "enable.idempotence=true");
        String described = tool(KafkaTool.TRANSACTIONS, "describe-producers", "--topic", "sequenced", "--partition", "0")
            .output();
        // ProducerId ProducerEpoch LatestCoordinatorEpoch LastSequence LastTimestamp CurrentTransactionStartOffset
        Matcher producer = Pattern.compile("(?m)^(\\d+)\\s+0\\s+-1\\s+999\\s+(\\d+)\\s+None\\s*$").matcher(described);
        assertTrue(described, producer.find());
        long lastTimestamp = Long.parseLong(producer.group(2));
        assertTrue(described, Math.abs(System.currentTimeMillis() - lastTimestamp) < TimeUnit.MINUTES.toMillis(5));
        assertTrue(described, !producer.find());
    }

    @Test(timeout = 300_000)
    public void kafkasTransactionalMessageCopierCopiesEveryRecordOnceThroughRandomAbortsAndKafkaTransactionsShowsIt()
        throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "copy-source", "--partitions", "1", "--replication-factor", "2");
        tool(KafkaTool.TOPICS, "--create", "--topic", "copy-sink", "--partitions", "2", "--replication-factor", "2");
        tool(KafkaTool.VERIFIABLE_PRODUCER, "--topic", "copy-source", "--max-messages", "3000", "--acks", "-1");
        // A system-test tool: copies in transactions of 100 records, aborting some at random, the consumed
        // offsets committed in each transaction with the consumer's group metadata.
        KafkaTool.Run copied = KafkaTool.run(KafkaTool.TRANSACTIONAL_MESSAGE_COPIER, List.of("--broker-list", bootstrap,
            "--input-topic", "copy-source", "--input-partition", "0", "--output-topic", "copy-sink", "--transactional-id",
            "copier", "--consumer-group", "copiers", "--transaction-size", "100", "--enable-random-aborts", "--group-mode",
            "--use-group-metadata")).expectSuccess();
        assertTrue(copied.output(), copied.output().contains("\"remaining\":0"));
        // Every record once: a duplicate would leave fewer than 3000 distinct among the first 3000, a loss end in the timeout.
        List<String> read = tool(KafkaTool.CONSOLE_CONSUMER, "--topic", "copy-sink", "--from-beginning", "--isolation-level",
            "read_committed", "--max-messages", "3000", "--timeout-ms", "30000").lines().stream()
            .filter(l -> l.matches("\\d+")).toList();
        assertEquals(3000, read.size());
        assertEquals("each copied once", 3000, new java.util.HashSet<>(read).size());

        List<String> listed = quotaLines(tool(KafkaTool.TRANSACTIONS, "list"));
        assertTrue(listed.toString(),
            listed.get(0).matches("TransactionalId\\s+Coordinator\\s+ProducerId\\s+TransactionState\\s*"));
        assertTrue(listed.toString(),
            listed.stream().anyMatch(l -> l.matches("copier\\s+\\d\\s+\\d+\\s+Complete(Commit|Abort)\\s*")));
        String described = tool(KafkaTool.TRANSACTIONS, "describe", "--transactional-id", "copier").output();
        assertTrue(described,
            Pattern.compile("(?m)^\\d\\s+copier\\s+\\d+\\s+\\d+\\s+Complete(Commit|Abort)\\s+60000\\s")
                .matcher(described).find());
        // find-hanging asks each broker about every replica it holds, leader or follower: none hangs here
        for (String broker : List.of("0", "1")) {
            List<String> hanging = quotaLines(tool(KafkaTool.TRANSACTIONS, "find-hanging", "--broker-id", broker));
            assertEquals(hanging.toString(), 1, hanging.size());
            assertTrue(hanging.toString(), hanging.get(0).startsWith("Topic\tPartition\tProducerId"));
        }
        // Kafka's own formatter reads __transaction_state as it reads Kafka's
        String state = tool(KafkaTool.CONSOLE_CONSUMER, "--topic", "__transaction_state", "--from-beginning",
            "--max-messages", "3", "--timeout-ms", "30000", "--formatter",
            "org.apache.kafka.tools.consumer.TransactionLogMessageFormatter").output();
        assertTrue(state, state.contains("\"transactionalId\":\"copier\"") && state.contains("\"transactionStatus\""));
    }

    @Test(timeout = 300_000)
    public void kafkaReassignPartitionsMovesAPartitionToTheOtherBroker() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "relocated", "--partitions", "1", "--replication-factor", "1");
        tool(KafkaTool.PRODUCER_PERFORMANCE, "--topic", "relocated", "--num-records", "5000", "--record-size", "100",
            "--throughput", "-1", "--command-property", "acks=all");
        int from = Integer.parseInt(partitionField(tool(KafkaTool.TOPICS, "--describe", "--topic", "relocated").output(),
            "Replicas"));
        int to = 1 - from;
        Path topics = temp.newFile("topics.json").toPath();
        Files.writeString(topics, "{\"version\":1,\"topics\":[{\"topic\":\"relocated\"}]}");
        String generated = tool(KafkaTool.REASSIGN_PARTITIONS, "--generate", "--topics-to-move-json-file", topics.toString(),
            "--broker-list", "0,1").output();
        assertTrue(generated, generated.contains("Current partition replica assignment")
            && generated.contains("\"topic\":\"relocated\",\"partition\":0,\"replicas\":[" + from + "]"));
        Path plan = temp.newFile("reassignment.json").toPath();
        Files.writeString(plan, "{\"version\":1,\"partitions\":[{\"topic\":\"relocated\",\"partition\":0,\"replicas\":["
            + to + "]}]}");
        String executed = tool(KafkaTool.REASSIGN_PARTITIONS, "--execute", "--reassignment-json-file", plan.toString()).output();
        assertTrue(executed, executed.contains("Successfully started partition reassignment for relocated-0"));
        String verified = "";
        for (int attempt = 0; attempt < 60 && !verified.contains("is completed"); attempt++) {
            Thread.sleep(500);
            verified = tool(KafkaTool.REASSIGN_PARTITIONS, "--verify", "--reassignment-json-file", plan.toString()).output();
        }
        assertTrue(verified, verified.contains("Reassignment of partition relocated-0 is completed."));
        String described = tool(KafkaTool.TOPICS, "--describe", "--topic", "relocated").output();
        assertEquals(described, String.valueOf(to), partitionField(described, "Replicas"));
        assertEquals(described, String.valueOf(to), partitionField(described, "Leader"));
        String listed = tool(KafkaTool.REASSIGN_PARTITIONS, "--list").output();
        assertTrue(listed, listed.contains("No partition reassignments found."));
        assertTrue(tool(KafkaTool.GET_OFFSETS, "--topic", "relocated").output(), tool(KafkaTool.GET_OFFSETS, "--topic",
            "relocated").output().contains("relocated:0:5000"));
        String consumed = tool(KafkaTool.CONSUMER_PERFORMANCE, "--topic", "relocated", "--num-records", "5000",
            "--timeout", "60000").output();
        assertTrue(consumed, Pattern.compile(", 5000, ").matcher(consumed).find());
    }

    /** A field of partition 0's line in kafka-topics --describe output, e.g. "Leader" or "Replicas". */
    private static String partitionField(String described, String field) {
        Matcher m = Pattern.compile("Partition: 0\t.*" + field + ": ([0-9,]+)").matcher(described);
        assertTrue(described, m.find());
        return m.group(1);
    }

    @Test(timeout = 300_000)
    public void kafkaConfigsFindsNoClientQuotasAndRefusesToSetOne() throws Exception {
        assertEquals(List.of(), quotaLines(tool(KafkaTool.CONFIGS, "--describe", "--entity-type", "clients")));
        KafkaTool.Run refused = KafkaTool.run(KafkaTool.CONFIGS, List.of("--bootstrap-server", bootstrap, "--alter",
            "--entity-type", "clients", "--entity-name", "app", "--add-config", "producer_byte_rate=1024"));
        assertEquals(refused.output(), 1, refused.exit());
        assertTrue(refused.output(), refused.output().contains("Millrace does not throttle clients"));
        assertEquals(List.of(), quotaLines(tool(KafkaTool.CONFIGS, "--describe", "--entity-type", "clients", "--entity-name",
            "app")));
    }

    @Test(timeout = 300_000)
    public void kafkaConfigsFindsNoUserCredentialsAndRefusesToSetOne() throws Exception {
        assertEquals(List.of(), quotaLines(tool(KafkaTool.CONFIGS, "--describe", "--entity-type", "users")));
        KafkaTool.Run refused = KafkaTool.run(KafkaTool.CONFIGS, List.of("--bootstrap-server", bootstrap, "--alter",
            "--entity-type", "users", "--entity-name", "alice", "--add-config", "SCRAM-SHA-256=[iterations=8192,password=secret]"));
        assertEquals(refused.output(), 1, refused.exit());
        assertTrue(refused.output(), refused.output().contains("Millrace does not authenticate clients"));
        assertEquals(List.of(), quotaLines(tool(KafkaTool.CONFIGS, "--describe", "--entity-type", "users")));
    }

    /** What kafka-configs printed about quotas, its logging's complaints left out. */
    private static List<String> quotaLines(KafkaTool.Run run) {
        return run.lines().stream().filter(l -> !l.startsWith("log4j:") && !l.isBlank()).toList();
    }

    @Test(timeout = 300_000)
    public void kafkaAclsSaysSecurityIsDisabledAndChangesNothing() throws Exception {
        for (List<String> args : List.of(List.of("--list"),
            List.of("--add", "--allow-principal", "User:alice", "--operation", "Read", "--topic", "orders"),
            List.of("--remove", "--force", "--topic", "orders"))) {
            List<String> all = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
            all.addAll(args);
            KafkaTool.Run run = KafkaTool.run(KafkaTool.ACLS, all);
            assertEquals(run.output(), 1, run.exit());
            assertTrue(run.output(), run.output().contains("SecurityDisabledException: No Authorizer is configured"));
        }
    }

    @Test(timeout = 300_000)
    public void kafkaConsoleProducerAndConsumerCarryKeyedLines() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "typed", "--partitions", "1", "--replication-factor", "1");
        Path input = temp.newFile("lines.txt").toPath();
        Files.writeString(input, "k1:first\nk2:second\nk3:third\n");
        KafkaTool.Run produced = KafkaTool.run(KafkaTool.CONSOLE_PRODUCER, List.of("--bootstrap-server", bootstrap, "--topic",
            "typed", "--reader-property", "parse.key=true", "--reader-property", "key.separator=:"), input).expectSuccess();
        String consumed = tool(KafkaTool.CONSOLE_CONSUMER, "--topic", "typed", "--from-beginning", "--max-messages", "3",
            "--formatter-property", "print.key=true", "--formatter-property", "key.separator=:").output();
        assertEquals(produced.output() + consumed, List.of("k1:first", "k2:second", "k3:third"),
            consumed.lines().filter(l -> l.startsWith("k")).toList());
    }

    @Test(timeout = 300_000)
    public void theVerifiableConsumerReadsOnTheConsumerGroupProtocolAndKafkaConsumerGroupsDescribesItsGroup()
            throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "kip848", "--partitions", "4", "--replication-factor", "1");
        KafkaTool.Run produced = tool(KafkaTool.VERIFIABLE_PRODUCER, "--topic", "kip848", "--max-messages", "2000",
            "--acks", "-1");
        assertEquals(produced.output(), 2000, count(produced, "\"name\":\"producer_send_success\""));
        KafkaTool.Run consumed = tool(KafkaTool.VERIFIABLE_CONSUMER, "--topic", "kip848", "--group-id", "kip848-readers",
            "--group-protocol", "consumer", "--max-messages", "2000", "--reset-policy", "earliest");
        assertEquals(consumed.output(), 2000, recordsConsumed(consumed));
        assertEquals(consumed.output(), 0, count(consumed, "\"success\":false"));
        long committed = 0;
        for (long[] row : offsetsAndEnds(tool(KafkaTool.CONSUMER_GROUPS, "--describe", "--group", "kip848-readers"))) {
            committed += row[0];
        }
        assertEquals("the verifiable consumer's commits", 2000, committed);

        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "group.id", "kip848-readers",
            "group.protocol", "consumer",
            "key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class,
            "value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> member =
                 new org.apache.kafka.clients.consumer.KafkaConsumer<>(props)) {
            member.subscribe(List.of("kip848"));
            long deadline = System.currentTimeMillis() + 60_000;
            while (member.assignment().size() < 4) {
                assertTrue("the member was assigned every partition", System.currentTimeMillis() < deadline);
                member.poll(java.time.Duration.ofMillis(100));
            }
            String listed = tool(KafkaTool.CONSUMER_GROUPS, "--list", "--type").output();
            assertTrue(listed, listed.lines().anyMatch(l -> l.matches("kip848-readers\\s+Consumer\\s*")));
            String members = tool(KafkaTool.CONSUMER_GROUPS, "--describe", "--group", "kip848-readers", "--members").output();
            String line = members.lines().filter(l -> l.contains(member.groupMetadata().memberId())).findFirst()
                .orElseThrow(() -> new AssertionError("the member is not described:\n" + members));
            assertTrue(line, line.trim().endsWith(" 4"));
        }
    }

    @Test(timeout = 300_000)
    public void theConsoleConsumerPrintsAGroupsStoredGenerationFromConsumerOffsets() throws Exception {
        tool(KafkaTool.TOPICS, "--create", "--topic", "generations", "--partitions", "2", "--replication-factor", "2");
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "group.id", "formatted",
            "key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class,
            "value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> member =
                 new org.apache.kafka.clients.consumer.KafkaConsumer<>(props)) {
            member.subscribe(List.of("generations"));
            long deadline = System.currentTimeMillis() + 60_000;
            while (member.assignment().size() < 2) {
                assertTrue("the member was assigned both partitions", System.currentTimeMillis() < deadline);
                member.poll(java.time.Duration.ofMillis(100));
            }
            String printed = tool(KafkaTool.CONSOLE_CONSUMER, "--topic", "__consumer_offsets", "--from-beginning",
                "--formatter", "org.apache.kafka.tools.consumer.GroupMetadataMessageFormatter", "--timeout-ms", "10000")
                .output();
            String line = printed.lines().filter(l -> l.contains("\"group\":\"formatted\"")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no generation of group formatted in:\n" + printed));
            assertTrue(line, line.contains("\"protocolType\":\"consumer\""));
            assertTrue(line, line.contains("\"generation\":" + member.groupMetadata().generationId()));
            assertTrue(line, line.contains("\"leader\":\"" + member.groupMetadata().memberId() + "\""));
            assertTrue(line, line.contains("\"memberId\":\"" + member.groupMetadata().memberId() + "\""));
        }
    }

    private static KafkaTool.Run tool(String mainClass, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        all.addAll(List.of(args));
        return KafkaTool.run(mainClass, all).expectSuccess();
    }

    private static int count(KafkaTool.Run run, String needle) {
        return (int) run.lines().stream().filter(l -> l.contains(needle)).count();
    }

    private static final Pattern CONSUMED = Pattern.compile("\"name\":\"records_consumed\",\"count\":(\\d+)");

    private static long recordsConsumed(KafkaTool.Run run) {
        long total = 0;
        for (String line : run.lines()) {
            Matcher m = CONSUMED.matcher(line);
            if (m.find()) {
                total += Long.parseLong(m.group(1));
            }
        }
        return total;
    }

    /** The CURRENT-OFFSET and LOG-END-OFFSET columns of kafka-consumer-groups --describe, per partition. */
    private static List<long[]> offsetsAndEnds(KafkaTool.Run run) {
        List<long[]> rows = new ArrayList<>();
        List<String> lines = run.lines();
        int current = -1;
        int end = -1;
        for (String line : lines) {
            List<String> cells = List.of(line.trim().split("\\s+"));
            if (cells.contains("CURRENT-OFFSET")) {
                current = cells.indexOf("CURRENT-OFFSET");
                end = cells.indexOf("LOG-END-OFFSET");
            } else if (current >= 0 && cells.size() > end && cells.get(current).matches("\\d+")) {
                rows.add(new long[] {Long.parseLong(cells.get(current)), Long.parseLong(cells.get(end))});
            }
        }
        return rows;
    }
}
