package io.millrace.producer;

import static org.junit.Assert.assertEquals;

import io.millrace.producer.internals.Murmur2;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.kafka.common.utils.Utils;
import org.junit.Test;

/** Keys land in the partition Kafka's own clients put them in. */
public class DefaultPartitionerTest {

    private static final int[] PARTITION_COUNTS = {1, 2, 3, 7, 12, 100, 1000};

    @Test
    public void tenThousandKeysLandWhereKafkaClientsPutThem() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            byte[] key = i % 2 == 0 ? ("user-" + i).getBytes(StandardCharsets.UTF_8) : randomBytes(random, i % 40);
            for (int n : PARTITION_COUNTS) {
                int expected = Utils.toPositive(Utils.murmur2(key)) % n;
                assertEquals("key #" + i + " among " + n + " partitions", expected, DefaultPartitioner.partitionForKey(key, n));
            }
        }
    }

    @Test
    public void theHashIsKafkasMurmur2ForEveryTailLength() {
        Random random = new Random(7);
        for (int length = 0; length < 64; length++) {
            byte[] key = randomBytes(random, length);
            assertEquals("length " + length, Utils.murmur2(key), Murmur2.hash(key));
        }
    }

    @Test
    public void recordsWithoutKeyAreLeftToTheStickyPartition() {
        assertEquals(Partitioner.UNASSIGNED, new DefaultPartitioner().partition("t", null, null, "v", new byte[1], 5));
    }

    @Test
    public void toPositiveKeepsIntegerMinValueInRange() {
        assertEquals(0, Murmur2.toPositive(Integer.MIN_VALUE));
        assertEquals(Utils.toPositive(-17), Murmur2.toPositive(-17));
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
