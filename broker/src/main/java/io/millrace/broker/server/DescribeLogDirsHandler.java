package io.millrace.broker.server;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeLogDirsRequest;
import io.millrace.common.protocol.message.DescribeLogDirsRequest.DescribableLogDirTopic;
import io.millrace.common.protocol.message.DescribeLogDirsResponse;
import io.millrace.common.protocol.message.DescribeLogDirsResponse.LogDirPartition;
import io.millrace.common.protocol.message.DescribeLogDirsResponse.LogDirResult;
import io.millrace.common.protocol.message.DescribeLogDirsResponse.LogDirTopic;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Describes this broker's log directories (`kafka-log-dirs --describe`, AdminClient's
 * {@code describeLogDirs}): every directory of {@code log.dirs} with the partitions in it, led or
 * followed, each with the bytes of its segments, and the size of the directory's volume and the
 * space left on it. As on Kafka, a directory that has failed is answered KAFKA_STORAGE_ERROR with no
 * partitions, and a partition the request names that is not here is left out. The offset lag is
 * Kafka's for a partition's current log: how far the log end is behind the high watermark, which it
 * never is. Millrace moves no partition between directories, so no log is a future one.
 */
final class DescribeLogDirsHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DescribeLogDirsHandler.class);

    private final LogManager logs;

    DescribeLogDirsHandler(LogManager logs) {
        this.logs = logs;
    }

    @Override
    public void handle(Request request) {
        DescribeLogDirsRequest body = request.body();
        Map<String, Set<Integer>> wanted = wanted(body);
        Map<Path, List<Log>> byDir = new HashMap<>();
        for (Log log : logs.allLogs()) {
            if (wanted == null || wanted.getOrDefault(log.topicPartition().topic(), Set.of())
                .contains(log.topicPartition().partition())) {
                byDir.computeIfAbsent(log.logDir(), dir -> new ArrayList<>()).add(log);
            }
        }
        List<LogDirResult> results = new ArrayList<>();
        for (Path dir : logs.logDirs()) {
            results.add(describe(dir, byDir.getOrDefault(dir, List.of())));
        }
        request.respond(new DescribeLogDirsResponse(0, Errors.NONE.code(), results));
    }

    /** The partitions asked for by topic, or null for all of them. */
    private static Map<String, Set<Integer>> wanted(DescribeLogDirsRequest body) {
        if (body.allTopics()) {
            return null;
        }
        Map<String, Set<Integer>> wanted = new HashMap<>();
        for (DescribableLogDirTopic topic : body.topics()) {
            wanted.computeIfAbsent(topic.topic(), t -> new HashSet<>()).addAll(topic.partitions());
        }
        return wanted;
    }

    private LogDirResult describe(Path dir, List<Log> dirLogs) {
        if (logs.failureChannel().isOffline(dir)) {
            return new LogDirResult(Errors.KAFKA_STORAGE_ERROR.code(), dir.toString(), List.of(),
                DescribeLogDirsResponse.UNKNOWN_BYTES, DescribeLogDirsResponse.UNKNOWN_BYTES, false);
        }
        Map<String, List<LogDirPartition>> byTopic = new TreeMap<>();
        dirLogs.stream().sorted(Comparator.comparingInt(log -> log.topicPartition().partition())).forEach(log ->
            byTopic.computeIfAbsent(log.topicPartition().topic(), t -> new ArrayList<>()).add(new LogDirPartition(
                log.topicPartition().partition(), log.size(), Math.max(log.highWatermark() - log.logEndOffset(), 0L), false)));
        List<LogDirTopic> topics = byTopic.entrySet().stream().map(e -> new LogDirTopic(e.getKey(), e.getValue())).toList();
        long total = DescribeLogDirsResponse.UNKNOWN_BYTES;
        long usable = DescribeLogDirsResponse.UNKNOWN_BYTES;
        try {
            FileStore store = Files.getFileStore(dir);
            total = store.getTotalSpace();
            usable = store.getUsableSpace();
        } catch (IOException e) {
            LOG.debug("Could not read the size of the volume of {}", dir, e);
        }
        return new LogDirResult(Errors.NONE.code(), dir.toString(), topics, total, usable, false);
    }
}
