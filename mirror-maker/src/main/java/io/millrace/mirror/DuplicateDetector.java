package io.millrace.mirror;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.Header;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells which of the records a stream copies after taking a partition over (a restart after a crash,
 * a rebalance, another mirror's death) the offline cluster already holds: the duplicates the
 * flush-then-commit design allows, read again from the last commit. The stream counts them and does not
 * write them again, so a crash leaves the offline partition as if it had not happened.
 *
 * <p>Why it works without any state of its own: the previous owner sent a partition's records in
 * order, and the offline broker appended them in that order or not at all (the idempotent producer's
 * sequence numbers, or one request in flight without them; a failed send stops everything behind it),
 * so what it sent after the last commit is a prefix of what this stream now copies from that commit,
 * and those copies sit, in the same order, in the offline partition before the takeover (interleaved
 * with other live clusters' records). So on the first record of a partition taken over, the detector
 * reads the offline partition from the first batch that could hold a copy (by the record's timestamp,
 * which the copy keeps) to the end the partition has now, and then matches the records being copied
 * against it in order: each one found is a duplicate; the first one not found ends the check. Records
 * are compared by a 64-bit fingerprint of timestamp, key, value and headers.
 *
 * <p>Exact with {@code partition.placement=source} (the default) and CreateTime offline topics. At most
 * {@code duplicate.check.max.records} offline records are read per takeover, the latest ones; a
 * re-copy older than that is not counted (and says so in the log). Mirror thread only.
 */
final class DuplicateDetector {

    private static final Logger LOG = LoggerFactory.getLogger(DuplicateDetector.class);
    private static final long[] NOTHING = new long[0];

    private final PartitionReader offline;
    private final int maxRecords;
    private final String stream;
    /** Per live topic, per partition: by topic name and index, so that the per-record lookup allocates nothing. */
    private final Map<String, Check[]> checks = new HashMap<>();

    /** The offline records one takeover may still match, in order. */
    private static final class Check {
        final long takenAt;
        long[] fingerprints;
        int next;
        long found;

        Check(long takenAt, long[] fingerprints) {
            this.takenAt = takenAt;
            this.fingerprints = fingerprints;
        }

        boolean isOver() {
            return fingerprints == null;
        }
    }

    DuplicateDetector(PartitionReader offline, int maxRecords, String stream) {
        this.offline = offline;
        this.maxRecords = maxRecords;
        this.stream = stream;
    }

    /**
     * Whether {@code record}, about to be copied to the same partition of {@code targetTopic}, is already
     * there. The first record of a source partition since it was taken starts the check. Call before
     * sending; {@code targetTopic} is null when the producer picks the partition (key placement), which
     * is not checked.
     */
    boolean isDuplicate(ConsumerRecord<byte[], byte[]> record, String targetTopic) {
        if (maxRecords == 0 || targetTopic == null) {
            return false;
        }
        Check check = check(record.topic(), record.partition(), record.offset(), record.timestamp(), targetTopic);
        if (check.isOver()) {
            return false;
        }
        long fingerprint = fingerprint(record);
        long[] offline = check.fingerprints;
        while (check.next < offline.length) {
            if (offline[check.next++] == fingerprint) {
                check.found++;
                return true;
            }
        }
        end(record.topicPartition(), check);
        return false;
    }

    /**
     * Whether the records of a live partition need not be looked at one by one any more, as the check of
     * its takeover is over (or finds nothing to match: an offline partition with nothing from
     * {@code timestamp} on). The first batch since the partition was taken starts the check, as its
     * first record would; {@code offset} and {@code timestamp} are that batch's first.
     */
    boolean isSettled(String topic, int partition, long offset, long timestamp, String targetTopic) {
        if (maxRecords == 0 || targetTopic == null) {
            return true;
        }
        return check(topic, partition, offset, timestamp, targetTopic).isOver();
    }

    /** The check of a live partition, started when this is its first record or batch since it was taken. */
    private Check check(String topic, int partition, long offset, long timestamp, String targetTopic) {
        Check[] partitions = checks.get(topic);
        if (partitions == null || partitions.length <= partition) {
            partitions = Arrays.copyOf(partitions == null ? new Check[0] : partitions, partition + 1);
            checks.put(topic, partitions);
        }
        Check check = partitions[partition];
        if (check == null) {
            long[] tail = offlineTail(new TopicPartition(targetTopic, partition), timestamp);
            check = new Check(offset, tail.length == 0 ? null : tail);
            partitions[partition] = check;
        }
        return check;
    }

    /** The partitions were given up: whoever takes them next checks again. */
    void released(Iterable<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            Check[] checked = checks.get(tp.topic());
            if (checked != null && tp.partition() < checked.length) {
                Check check = checked[tp.partition()];
                checked[tp.partition()] = null;
                if (check != null && !check.isOver()) {
                    end(tp, check);
                }
            }
        }
    }

    private void end(TopicPartition source, Check check) {
        check.fingerprints = null;
        if (check.found > 0) {
            LOG.info("Mirror stream {}: took {} over at offset {}; the offline cluster already held the next {} records "
                + "(copied before the last commit), so they were not written again", stream, source, check.takenAt, check.found);
        }
    }

    /** Fingerprints of the offline records that could be copies of records from {@code timestamp} on. */
    private long[] offlineTail(TopicPartition target, long timestamp) {
        try {
            long end = offline.latestOffset(target);
            OptionalLong first = timestamp < 0 ? OptionalLong.of(offline.earliestOffset(target))
                : offline.offsetForTime(target, timestamp);
            if (first.isEmpty() || first.getAsLong() >= end) {
                return NOTHING;
            }
            long start = first.getAsLong();
            if (end - start > maxRecords) {
                LOG.info("Mirror stream {}: looking for duplicates in the last {} of {}'s {} records that could hold them "
                    + "(duplicate.check.max.records); older copies would not be counted", stream, maxRecords, target,
                    end - start);
                start = end - maxRecords;
            }
            long[] fingerprints = new long[(int) (end - start)];
            int count = 0;
            Iterator<ConsumerRecord<byte[], byte[]>> records = offline.read(target, start, end);
            while (records.hasNext() && count < fingerprints.length) {
                fingerprints[count++] = fingerprint(records.next());
            }
            return count == fingerprints.length ? fingerprints : Arrays.copyOf(fingerprints, count);
        } catch (RuntimeException e) {
            LOG.warn("Mirror stream {}: cannot read {} to count duplicates ({}); none counted for this takeover", stream,
                target, e.toString());
            return NOTHING;
        }
    }

    static long fingerprint(ConsumerRecord<byte[], byte[]> record) {
        long hash = mix(0x9E3779B97F4A7C15L ^ record.timestamp());
        hash = add(hash, record.key());
        hash = add(hash, record.value());
        for (Header header : record.headers()) {
            hash = add(hash, header.key().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            hash = add(hash, header.value());
        }
        return hash;
    }

    private static long add(long hash, byte[] bytes) {
        if (bytes == null) {
            return mix(hash ^ 0x5DEECE66DL);
        }
        long h = hash ^ bytes.length;
        int i = 0;
        for (; i + 8 <= bytes.length; i += 8) {
            h = mix(h ^ longAt(bytes, i));
        }
        long tail = 0;
        for (; i < bytes.length; i++) {
            tail = (tail << 8) | (bytes[i] & 0xFF);
        }
        return mix(h ^ tail ^ 0xFF51AFD7ED558CCDL);
    }

    private static long longAt(byte[] bytes, int i) {
        long value = 0;
        for (int j = 0; j < 8; j++) {
            value = (value << 8) | (bytes[i + j] & 0xFF);
        }
        return value;
    }

    /** A 64-bit finalizer (splitmix64's), so that every input bit spreads over the whole fingerprint. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
