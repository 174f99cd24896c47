package io.millrace.common.record;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.utils.ByteUtils;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Hostile bytes against the whole read path: {@link RecordBatchIterator}, {@link RecordBatch#ensureValid()}
 * and record iteration with every accessor. Valid batches of every codec are bit-flipped, cut,
 * given random lengths, counts and varints, re-compressed around damaged records, or replaced by
 * pure noise; half the time the CRC is fixed up so the damage reaches the record parser. The only
 * exception allowed is the {@link InvalidRecordException} family; every case must end, and soon.
 *
 * <p>The seed changes per run and is printed in every failure; rerun one with
 * {@code -Dmillrace.fuzz.seed=<seed>} (and {@code -Dmillrace.fuzz.cases=<n>} for more cases).
 */
public class RecordBatchFuzzTest {

    private static final long SEED = Long.getLong("millrace.fuzz.seed", System.nanoTime());
    private static final int CASES = Integer.getInteger("millrace.fuzz.cases", 6000);
    private static final int MAX_RECORDS_BYTES = 1 << 20;
    /** Generous, for a loaded two-core machine; honest cases take well under a millisecond. */
    private static final long MAX_CASE_MILLIS = 2_000;

    private static final List<byte[]> VALID = new ArrayList<>();
    private static final List<byte[]> RECORDS_SECTIONS = new ArrayList<>();

    @BeforeClass
    public static void buildValidBatches() {
        for (CompressionType type : CompressionType.values()) {
            for (Scenario scenario : Arrays.asList(Scenario.mixed(), Scenario.logAppendTime(), Scenario.idempotent(), medium())) {
                VALID.add(TestBatches.bytes(scenario.buildWithMillrace(type)));
            }
        }
        for (Scenario scenario : Arrays.asList(Scenario.mixed(), Scenario.idempotent(), medium())) {
            RECORDS_SECTIONS.add(TestBatches.recordsOf(scenario.buildWithMillrace(CompressionType.NONE)));
        }
    }

    /** Fifty records with headers: small enough to mutate cheaply, big enough to have structure. */
    private static Scenario medium() {
        Scenario large = Scenario.large();
        large.records.subList(50, large.records.size()).clear();
        return large;
    }

    @Test(timeout = 120_000)
    public void hostileBytesRaiseOnlyInvalidRecordExceptionsAndEveryCaseEnds() {
        for (int i = 0; i < CASES; i++) {
            Random random = new Random(SEED + i * 0x9E3779B97F4A7C15L);
            byte[] input = hostileInput(random);
            long start = System.nanoTime();
            try {
                exercise(ByteBuffer.wrap(input));
            } catch (RuntimeException | Error e) {
                throw new AssertionError(where(i, input) + " threw " + e, e);
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(where(i, input) + " took " + millis + " ms", millis < MAX_CASE_MILLIS);
        }
    }

    private static String where(int i, byte[] input) {
        String hex = RecordBatchExampleTest.hex(ByteBuffer.wrap(input, 0, Math.min(input.length, 96)));
        return "seed " + SEED + " case " + i + " (" + input.length + " bytes: " + hex + (input.length > 96 ? " ...)" : ")");
    }

    private static byte[] hostileInput(Random random) {
        switch (random.nextInt(8)) {
            case 0: return noise(random);
            case 1: return noiseWithAPlausibleHeader(random);
            case 2: return maybeFixCrc(flipBits(pick(random, VALID), random), random);
            case 3: return truncate(concatenated(random), random);
            case 4: return maybeFixCrc(overwriteHeaderField(pick(random, VALID), random), random);
            case 5: return maybeFixCrc(injectVarint(pick(random, VALID), random), random);
            case 6: return recompressedDamagedRecords(random);
            default: return maybeFixCrc(randomLength(concatenated(random), random), random);
        }
    }

    private static byte[] pick(Random random, List<byte[]> pool) {
        return pool.get(random.nextInt(pool.size())).clone();
    }

    private static byte[] noise(Random random) {
        byte[] bytes = new byte[random.nextInt(300)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Noise behind a header whose Length, magic and codec make it past the first checks. */
    private static byte[] noiseWithAPlausibleHeader(Random random) {
        byte[] bytes = new byte[RecordBatch.HEADER_SIZE + random.nextInt(300)];
        random.nextBytes(bytes);
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        buffer.putInt(RecordBatch.LENGTH_OFFSET, bytes.length - RecordBatch.LOG_OVERHEAD);
        buffer.put(RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC);
        buffer.putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) random.nextInt(5));
        buffer.putInt(RecordBatch.RECORDS_COUNT_OFFSET, random.nextInt(64));
        return maybeFixCrc(bytes, random);
    }

    private static byte[] concatenated(Random random) {
        int n = 1 + random.nextInt(3);
        byte[] all = new byte[0];
        for (int b = 0; b < n; b++) {
            all = TestBatches.concat(all, pick(random, VALID));
        }
        return all;
    }

    private static byte[] flipBits(byte[] bytes, Random random) {
        for (int n = 1 + random.nextInt(8); n > 0; n--) {
            bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
        }
        return bytes;
    }

    private static byte[] truncate(byte[] bytes, Random random) {
        return Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
    }

    private static final int[] HEADER_FIELDS = {RecordBatch.LENGTH_OFFSET, RecordBatch.LAST_OFFSET_DELTA_OFFSET,
        RecordBatch.RECORDS_COUNT_OFFSET, RecordBatch.BASE_TIMESTAMP_OFFSET + 4, RecordBatch.MAX_TIMESTAMP_OFFSET + 4};

    private static byte[] overwriteHeaderField(byte[] bytes, Random random) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (random.nextInt(4) == 0) {
            buffer.putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) random.nextInt(256));
            return bytes;
        }
        int field = HEADER_FIELDS[random.nextInt(HEADER_FIELDS.length)];
        buffer.putInt(field, interestingInt(random, buffer.getInt(field)));
        return bytes;
    }

    /** Values near the edges: 0, -1, MIN/MAX, off by one or a little from the real value. */
    private static int interestingInt(Random random, int real) {
        switch (random.nextInt(5)) {
            case 0: return new int[] {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE}[random.nextInt(5)];
            case 1: return real + random.nextInt(5) - 2;
            case 2: return real + random.nextInt(200) - 100;
            case 3: return random.nextInt(1 << 16);
            default: return random.nextInt();
        }
    }

    /** A random varint, sometimes over-long, written over the records section. */
    private static byte[] injectVarint(byte[] bytes, Random random) {
        if (bytes.length <= RecordBatch.HEADER_SIZE) {
            return bytes;
        }
        byte[] varint = randomVarint(random);
        int at = RecordBatch.HEADER_SIZE + random.nextInt(bytes.length - RecordBatch.HEADER_SIZE);
        System.arraycopy(varint, 0, bytes, at, Math.min(varint.length, bytes.length - at));
        return bytes;
    }

    private static byte[] randomVarint(Random random) {
        if (random.nextInt(4) == 0) {
            byte[] overlong = new byte[6 + random.nextInt(6)];
            Arrays.fill(overlong, (byte) 0xff);
            overlong[overlong.length - 1] = 0x01;
            return overlong;
        }
        ByteBuffer buffer = ByteBuffer.allocate(10);
        if (random.nextBoolean()) {
            ByteUtils.writeVarint(interestingInt(random, random.nextInt(100) - 2), buffer);
        } else {
            ByteUtils.writeVarlong(random.nextLong() >> random.nextInt(64), buffer);
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    /** Damaged records inside a well-formed, correctly compressed and checksummed batch. */
    private static byte[] recompressedDamagedRecords(Random random) {
        byte[] records = pick(random, RECORDS_SECTIONS);
        switch (random.nextInt(4)) {
            case 0: records = flipBits(records, random); break;
            case 1: records = truncate(records, random); break;
            case 2: records = TestBatches.concat(records, noise(random)); break;
            default:
                byte[] varint = randomVarint(random);
                int at = random.nextInt(records.length);
                System.arraycopy(varint, 0, records, at, Math.min(varint.length, records.length - at));
        }
        CompressionType type = CompressionType.forId(random.nextInt(5));
        int count = random.nextInt(4) == 0 ? interestingInt(random, 50) : 1 + random.nextInt(60);
        int lastOffsetDelta = random.nextBoolean() ? count - 1 : interestingInt(random, count - 1);
        return TestBatches.bytes(TestBatches.batch(type, count, lastOffsetDelta, records));
    }

    private static byte[] randomLength(byte[] bytes, Random random) {
        ByteBuffer.wrap(bytes).putInt(RecordBatch.LENGTH_OFFSET, interestingInt(random, bytes.length - RecordBatch.LOG_OVERHEAD));
        return bytes;
    }

    /** Half the time, restamps the first batch's CRC so the damage gets past ensureValid. */
    private static byte[] maybeFixCrc(byte[] bytes, Random random) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (random.nextBoolean() && bytes.length >= RecordBatch.HEADER_SIZE) {
            int length = buffer.getInt(RecordBatch.LENGTH_OFFSET);
            if (length >= RecordBatch.MIN_LENGTH && length <= bytes.length - RecordBatch.LOG_OVERHEAD) {
                TestBatches.fixCrc(buffer, 0);
            }
        }
        return bytes;
    }

    /** Reads everything a consumer or broker would read, touching every accessor. */
    private static void exercise(ByteBuffer buffer) {
        int maxBatches = buffer.remaining() / RecordBatch.HEADER_SIZE + 1;
        int batchesRead = 0;
        try {
            RecordBatchIterator batches = new RecordBatchIterator(buffer);
            while (batches.hasNext()) {
                assertTrue("more batches than bytes allow", ++batchesRead <= maxBatches);
                readBatch(batches.next());
            }
            batches.truncatedBytes();
        } catch (InvalidRecordException expected) {
            // hostile bytes found out
        }
    }

    private static void readBatch(RecordBatch batch) {
        try {
            batch.ensureValid();
        } catch (InvalidRecordException expected) {
            // read the records anyway: a consumer that skips the CRC check must be safe too
        }
        batch.toString();
        try (RecordIterator records = batch.records(MAX_RECORDS_BYTES)) {
            int read = 0;
            Record reused = null;
            while (records.hasNext()) {
                assertTrue("more records than the batch claims", ++read <= batch.recordCount());
                Record record = read % 2 == 0 ? records.next() : (reused = records.nextInto(reused));
                touch(record);
            }
        } catch (InvalidRecordException expected) {
            // hostile bytes found out
        }
    }

    private static void touch(Record record) {
        record.offset();
        record.timestamp();
        record.sizeInBytes();
        ByteBuffer key = record.key();
        ByteBuffer value = record.value();
        if (key != null && key.remaining() != record.keySize() || value != null && value.remaining() != record.valueSize()) {
            fail("slice sizes disagree with the record: " + record);
        }
        for (Header header : record.headers()) {
            header.key();
        }
        record.toString();
    }
}
