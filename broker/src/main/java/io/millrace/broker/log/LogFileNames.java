package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Every rule for naming the files and directories of the log, in one place.
 *
 * <pre>
 * &lt;log.dir&gt;/
 *   .lock                                 held (file lock) by the broker using the directory
 *   recovery-point-offset-checkpoint      text: version, count, "topic partition offset" lines
 *   replication-offset-checkpoint         the same format: each partition's high watermark
 *   .millrace_cleanshutdown               present only between a clean shutdown and the next start
 *   &lt;topic&gt;-&lt;partition&gt;/                   one partition, e.g. "events-3"
 *     00000000000000000000.log            record batches, named by the segment's base offset
 *     00000000000000000000.index          offset index
 *     00000000000000000000.timeindex      time index
 *     00000000000000000000.snapshot       idempotent producers' state at that offset
 *     00000000000000368769.log.deleted    a segment waiting for its delayed delete
 *     leader-epoch-checkpoint             text: version, count, "epoch startOffset" lines
 *   &lt;topic&gt;-&lt;partition&gt;.&lt;uuid&gt;-delete/     a deleted partition waiting for removal
 * </pre>
 *
 * Base offsets are zero-padded to 20 digits so that {@code ls} sorts segments numerically.
 * {@code .cleaned} files are the log cleaner's copy of a segment before it takes the original's
 * place; {@code .swap} is reserved. Both are discarded at startup. Stateless.
 */
public final class LogFileNames {

    public static final String LOG_SUFFIX = ".log";
    public static final String INDEX_SUFFIX = ".index";
    public static final String TIME_INDEX_SUFFIX = ".timeindex";
    public static final String PRODUCER_SNAPSHOT_SUFFIX = ".snapshot";
    public static final String DELETED_SUFFIX = ".deleted";
    public static final String CLEANED_SUFFIX = ".cleaned";
    public static final String SWAP_SUFFIX = ".swap";
    public static final String TMP_SUFFIX = ".tmp";
    public static final String DELETE_DIR_SUFFIX = "-delete";

    public static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    /** Each partition's log start offset, which DeleteRecords may move inside a segment. */
    public static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";
    /** Each partition's high watermark: the offset below which every in-sync replica has the records. */
    public static final String REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint";
    /** Each compacted partition's offset below which the log cleaner has cleaned it. */
    public static final String CLEANER_OFFSET_CHECKPOINT = "cleaner-offset-checkpoint";
    /** In a partition directory: the first offset of each leader epoch ({@link LeaderEpochCache}). */
    public static final String LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint";
    public static final String CLEAN_SHUTDOWN_MARKER = ".millrace_cleanshutdown";
    public static final String LOCK_FILE = ".lock";

    /** Kafka's limit, so that a topic's directory name stays within common file-name limits. */
    public static final int MAX_TOPIC_LENGTH = 249;

    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]+");
    private static final Pattern BASE_OFFSET = Pattern.compile("\\d{20}");

    private LogFileNames() {
    }

    /** The 20-digit zero-padded form of an offset, e.g. {@code 00000000000000000042}. */
    public static String filenamePrefix(long baseOffset) {
        return String.format(Locale.ROOT, "%020d", baseOffset);
    }

    public static Path logFile(Path dir, long baseOffset) {
        return dir.resolve(filenamePrefix(baseOffset) + LOG_SUFFIX);
    }

    public static Path offsetIndexFile(Path dir, long baseOffset) {
        return dir.resolve(filenamePrefix(baseOffset) + INDEX_SUFFIX);
    }

    public static Path timeIndexFile(Path dir, long baseOffset) {
        return dir.resolve(filenamePrefix(baseOffset) + TIME_INDEX_SUFFIX);
    }

    /** The snapshot of the producers' state when the log ended at {@code offset}. */
    public static Path producerSnapshotFile(Path dir, long offset) {
        return dir.resolve(filenamePrefix(offset) + PRODUCER_SNAPSHOT_SUFFIX);
    }

    /** The name of a cleaned copy of {@code file} ({@code <name>.cleaned}), written beside it. */
    public static Path cleanedFile(Path file) {
        return file.resolveSibling(file.getFileName() + CLEANED_SUFFIX);
    }

    /** The name a file takes while it waits for its delayed delete. */
    public static Path deletedFile(Path file) {
        return file.resolveSibling(file.getFileName() + DELETED_SUFFIX);
    }

    /** The base offset a segment file is named after, if the name is {@code <20 digits><suffix>}. */
    public static OptionalLong baseOffset(Path file, String suffix) {
        String name = file.getFileName().toString();
        if (!name.endsWith(suffix)) {
            return OptionalLong.empty();
        }
        String prefix = name.substring(0, name.length() - suffix.length());
        return BASE_OFFSET.matcher(prefix).matches() ? OptionalLong.of(Long.parseLong(prefix)) : OptionalLong.empty();
    }

    /** Leftovers of an interrupted rename that startup removes. */
    public static boolean isLeftover(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(DELETED_SUFFIX) || name.endsWith(CLEANED_SUFFIX) || name.endsWith(SWAP_SUFFIX)
            || name.endsWith(TMP_SUFFIX);
    }

    /** The directory name of a partition: {@code <topic>-<partition>}. */
    public static String partitionDirName(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    /** A unique name for a deleted partition's directory, so a new partition of that name can be created at once. */
    public static String deletedPartitionDirName(TopicPartition tp) {
        return partitionDirName(tp) + "." + UUID.randomUUID().toString().replace("-", "") + DELETE_DIR_SUFFIX;
    }

    public static boolean isDeletedPartitionDir(Path dir) {
        return dir.getFileName().toString().endsWith(DELETE_DIR_SUFFIX);
    }

    /** Parses {@code <topic>-<partition>}; the topic may itself contain dashes, so split at the last one. */
    public static TopicPartition parsePartitionDirName(String name) {
        int dash = name.lastIndexOf('-');
        if (dash <= 0 || dash == name.length() - 1) {
            throw new IllegalArgumentException("Not a partition directory name: " + name);
        }
        String topic = name.substring(0, dash);
        int partition;
        try {
            partition = Integer.parseInt(name.substring(dash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Not a partition directory name: " + name, e);
        }
        validateTopic(topic);
        if (partition < 0) {
            throw new IllegalArgumentException("Negative partition in directory name: " + name);
        }
        return new TopicPartition(topic, partition);
    }

    /**
     * Rejects topic names that would not round-trip through a directory name or a checkpoint
     * line: Kafka's legal characters, at most {@value #MAX_TOPIC_LENGTH} of them, not "." or "..".
     */
    public static void validateTopic(String topic) {
        if (topic == null || topic.isEmpty() || topic.equals(".") || topic.equals("..")
            || topic.length() > MAX_TOPIC_LENGTH || !LEGAL_TOPIC.matcher(topic).matches()) {
            throw new IllegalArgumentException("Illegal topic name '" + topic + "': use at most " + MAX_TOPIC_LENGTH
                + " of [a-zA-Z0-9._-], not '.' or '..'");
        }
    }
}
