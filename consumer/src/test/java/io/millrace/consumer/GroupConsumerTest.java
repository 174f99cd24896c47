package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.testkit.Conditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.Before;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The paper's group consumer against real brokers and a real ZooKeeper: Algorithm 1 spreads the
 * partitions, every message arrives, a lost consumer's partitions move, groups are independent.
 */
public class GroupConsumerTest {

    private static LocalCluster cluster;
    private static TestProducer producer;
    private GroupTestSupport support;

    @BeforeClass
    public static void startCluster() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        producer = new TestProducer(cluster.bootstrapServers());
    }

    @AfterClass
    public static void stopCluster() {
        producer.close();
        cluster.close();
    }

    @Before
    public void setUp() {
        support = new GroupTestSupport(cluster);
    }

    @After
    public void tearDown() {
        support.close();
    }

    @Test
    public void threeConsumersShareTwelvePartitionsAndReadEveryMessageOnce() throws Exception {
        cluster.createTopic("twelve", 12);
        GroupConsumer<String, String> first = support.consumer("g-twelve");
        StreamCollector firstReads = support.subscribe(first, "twelve");
        Conditions.waitUntil(() -> first.ownedPartitions().size() == 12, "the first consumer owns everything");

        GroupConsumer<String, String> second = support.consumer("g-twelve");
        StreamCollector secondReads = support.subscribe(second, "twelve");
        Conditions.waitUntil(() -> first.ownedPartitions().size() == 6 && second.ownedPartitions().size() == 6,
            "a joining consumer makes the group rebalance to 6 + 6");

        GroupConsumer<String, String> third = support.consumer("g-twelve");
        StreamCollector thirdReads = support.subscribe(third, "twelve");
        List<GroupConsumer<String, String>> group = List.of(first, second, third);
        Conditions.waitUntil(() -> GroupTestSupport.ownEachOnce(group, 12)
            && group.stream().allMatch(c -> c.ownedPartitions().size() == 4), "4 partitions each");

        List<String> sent = producer.produce("twelve", 12, 50, "m");
        List<StreamCollector> readers = List.of(firstReads, secondReads, thirdReads);
        Conditions.waitUntil(() -> readers.stream().mapToInt(StreamCollector::count).sum() >= sent.size(), 20_000,
            "every message arrives");
        List<String> received = new ArrayList<>();
        readers.forEach(r -> received.addAll(r.values()));
        assertEquals("no duplicates", sent.size(), received.size());
        assertEquals(new HashSet<>(sent), new HashSet<>(received));
        for (int i = 0; i < 3; i++) {
            Set<Integer> owned = group.get(i).ownedPartitions().stream().map(TopicPartition::partition).collect(Collectors.toSet());
            for (ConsumerRecord<String, String> record : readers.get(i).received) {
                assertTrue("consumer " + i + " read only its own partitions", owned.contains(record.partition()));
            }
        }
    }

    @Test
    public void lagIsWhatThePartitionHoldsPastTheLastProcessedRecord() throws Exception {
        cluster.createTopic("lagging", 1);
        GroupConsumer<String, String> consumer = support.consumer("g-lagging");
        assertEquals("nothing owned, no lag", Map.of(), consumer.lag());
        Iterator<ConsumerRecord<String, String>> stream =
            consumer.createMessageStreams(Map.of("lagging", 1)).get("lagging").get(0).iterator();
        TopicPartition tp = new TopicPartition("lagging", 0);
        Conditions.waitUntil(() -> consumer.ownedPartitions().contains(tp), "the partition to be owned");
        producer.produce("lagging", 1, 10, "l");
        for (int i = 0; i < 3; i++) {
            stream.next();
        }
        stream.hasNext();   // the third record is processed: seven are left
        Conditions.waitUntil(() -> Long.valueOf(7).equals(consumer.lag().get(tp)), "a lag of 7");
        for (int i = 0; i < 7; i++) {
            stream.next();
        }
        producer.produce("lagging", 1, 5, "more");
        assertTrue(stream.hasNext());   // all ten processed; the five new ones fetched, none handed out
        assertEquals(Long.valueOf(5), consumer.lag().get(tp));
    }

    @Test
    public void aLostSessionMovesItsPartitionsAndDuplicatesStartAtTheLastCommit() throws Exception {
        cluster.createTopic("crash", 12);
        Map<String, Object> noAutoCommit = support.settings("g-crash");
        noAutoCommit.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        GroupConsumer<String, String> crashing = support.consumer(noAutoCommit);
        StreamCollector crashingReads = support.subscribe(crashing, "crash");
        GroupConsumer<String, String> a = support.consumer("g-crash");
        StreamCollector aReads = support.subscribe(a, "crash");
        GroupConsumer<String, String> b = support.consumer("g-crash");
        StreamCollector bReads = support.subscribe(b, "crash");
        List<StreamCollector> readers = List.of(crashingReads, aReads, bReads);
        Conditions.waitUntil(() -> GroupTestSupport.ownEachOnce(List.of(crashing, a, b), 12)
            && crashing.ownedPartitions().size() == 4, "the group settles");

        List<String> sent = new ArrayList<>(producer.produce("crash", 12, 50, "first"));
        Conditions.waitUntil(() -> total(readers) >= sent.size(), 20_000, "the first messages arrive");
        crashing.commit();
        Set<TopicPartition> lost = crashing.ownedPartitions();
        Map<TopicPartition, Long> committed = committedOffsets("g-crash", lost);

        sent.addAll(producer.produce("crash", 12, 50, "second"));
        long crashingSecond = 4 * 50;
        Conditions.waitUntil(() -> crashingReads.values().stream().filter(v -> v.startsWith("second")).count() >= crashingSecond,
            20_000, "the doomed consumer reads past its last commit");

        crashing.zooKeeperClient().close();   // the session ends as with a crash: ephemeral nodes go
        crashingReads.stop();
        Conditions.waitUntil(() -> GroupTestSupport.ownEachOnce(List.of(a, b), 12), 10_000,
            "the survivors take the lost partitions within seconds");
        Conditions.waitUntil(() -> distinct(readers).containsAll(sent), 20_000, "every message is read at least once");
        // what the lost consumer read after its last commit died with it: the survivors must deliver it again
        List<String> uncommitted = crashingReads.received.stream()
            .filter(r -> r.offset() >= committed.get(r.topicPartition())).map(ConsumerRecord::value).toList();
        Conditions.waitUntil(() -> distinct(List.of(aReads, bReads)).containsAll(uncommitted), 20_000,
            "the survivors read the lost consumer's partitions again from its last commit");

        Map<String, Integer> copies = new HashMap<>();
        Map<String, ConsumerRecord<String, String>> byValue = new HashMap<>();
        for (StreamCollector reader : readers) {
            for (ConsumerRecord<String, String> record : reader.received) {
                copies.merge(record.value(), 1, Integer::sum);
                byValue.put(record.value(), record);
            }
        }
        List<String> duplicates = copies.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        assertFalse("what the lost consumer read after its commit is read again", duplicates.isEmpty());
        for (String value : duplicates) {
            ConsumerRecord<String, String> record = byValue.get(value);
            Long from = committed.get(record.topicPartition());
            assertNotNull("duplicate " + value + " comes from a partition of the lost consumer", from);
            assertTrue("duplicate " + value + " lies after the last commit " + from, record.offset() >= from);
        }
    }

    @Test
    public void twoGroupsEachReadEverything() throws Exception {
        cluster.createTopic("shared", 4);
        StreamCollector one = support.subscribe(support.consumer("g-one"), "shared");
        StreamCollector two = support.subscribe(support.consumer("g-two"), "shared");
        List<String> sent = producer.produce("shared", 4, 25, "s");
        Conditions.waitUntil(() -> one.count() >= sent.size() && two.count() >= sent.size(), 20_000, "both groups read all");
        assertEquals(new HashSet<>(sent), new HashSet<>(one.values()));
        assertEquals(new HashSet<>(sent), new HashSet<>(two.values()));
        assertEquals(sent.size(), one.count());
        assertEquals(sent.size(), two.count());
    }

    @Test
    public void fiveConsumersStartedTogetherSettleWithEveryPartitionOwnedOnce() throws Exception {
        cluster.createTopic("five", 12);
        ExecutorService starter = Executors.newFixedThreadPool(5);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<GroupConsumer<String, String>>> starting = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            starting.add(starter.submit(() -> {
                GroupConsumer<String, String> consumer = support.consumer("g-five");
                go.await();
                support.subscribe(consumer, "five");
                return consumer;
            }));
        }
        go.countDown();
        List<GroupConsumer<String, String>> group = new ArrayList<>();
        for (Future<GroupConsumer<String, String>> consumer : starting) {
            group.add(consumer.get());
        }
        starter.shutdown();
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(support.settings("g-five")))) {
            // A late watch event may start one more rebalance after the group first settles, which gives its
            // owner nodes up for a moment: wait for a moment where memory and the ownership registry agree.
            List<List<GroupOffsets.PartitionLag>> settled = new ArrayList<>();
            Conditions.waitUntil(() -> {
                if (!GroupTestSupport.ownEachOnce(group, 12)
                        || !group.stream().allMatch(c -> c.ownedPartitions().size() >= 2 && c.ownedPartitions().size() <= 3)) {
                    return false;
                }
                List<GroupOffsets.PartitionLag> rows = offsets.describe("g-five");
                settled.add(0, rows);
                return rows.stream().allMatch(row -> row.owner() != null);
            }, 20_000, "every partition owned exactly once, 2 or 3 per consumer, each with its owner node");
            Set<String> threads = new HashSet<>();
            for (GroupOffsets.PartitionLag row : settled.get(0)) {
                assertNotNull("partition " + row.partition() + " has an owner node", row.owner());
                threads.add(row.owner());
            }
            assertEquals(12, settled.get(0).size());
            assertEquals(5, threads.size());
        }
    }

    @Test
    public void seekingBackDeliversTheSameMessagesAgain() throws Exception {
        cluster.createTopic("rewind", 1);
        GroupConsumer<String, String> consumer = support.consumer("g-rewind");
        StreamCollector reads = support.subscribe(consumer, "rewind");
        List<String> sent = producer.produce("rewind", 1, 300, "r");
        Conditions.waitUntil(() -> reads.count() >= 300, 20_000, "the first pass");
        consumer.seek("rewind", 0, 200);
        Conditions.waitUntil(() -> reads.count() >= 400, 20_000, "the last 100 again");
        List<String> all = reads.values();
        assertEquals(400, all.size());
        assertEquals(sent.subList(200, 300), all.subList(300, 400));
    }

    @Test
    public void aRegexSubscriptionReadsEveryMatchingTopic() throws Exception {
        cluster.createTopic("rx-a", 2);
        cluster.createTopic("rx-b", 2);
        cluster.createTopic("other", 1);
        GroupConsumer<String, String> consumer = support.consumer("g-regex");
        StreamCollector reads = new StreamCollector(consumer.createMessageStreamsByFilter("rx-.*", 2));
        List<String> sent = new ArrayList<>(producer.produce("rx-a", 2, 10, "a"));
        sent.addAll(producer.produce("rx-b", 2, 10, "b"));
        producer.produce("other", 1, 10, "o");
        Conditions.waitUntil(() -> reads.count() >= sent.size(), 20_000, "both matching topics are read");
        assertEquals(new HashSet<>(sent), new HashSet<>(reads.values()));
        assertEquals(sent.size(), reads.count());
    }

    private static int total(List<StreamCollector> readers) {
        return readers.stream().mapToInt(StreamCollector::count).sum();
    }

    private static Set<String> distinct(List<StreamCollector> readers) {
        Set<String> values = new HashSet<>();
        readers.forEach(r -> values.addAll(r.values()));
        return values;
    }

    private Map<TopicPartition, Long> committedOffsets(String group, Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> committed = new HashMap<>();
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(support.settings(group)))) {
            for (GroupOffsets.PartitionLag row : offsets.describe(group)) {
                TopicPartition tp = new TopicPartition(row.topic(), row.partition());
                if (partitions.contains(tp)) {
                    committed.put(tp, row.committedOffset());
                }
            }
        }
        assertEquals(partitions.size(), committed.size());
        return committed;
    }
}
