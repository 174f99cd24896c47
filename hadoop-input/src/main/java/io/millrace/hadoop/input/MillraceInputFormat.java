package io.millrace.hadoop.input;

import io.millrace.common.TopicPartition;
import io.millrace.common.config.ConfigException;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.state.CommittedOffset;
import io.millrace.hadoop.state.JsonFiles;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.StateDir;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads Millrace topics into MapReduce ({@code org.apache.hadoop.mapreduce} API). Configure it with
 * {@link LoadConfig} settings in the job's configuration ({@link LoadConfig#writeTo}): the brokers,
 * the topics, the state directory.
 *
 * <p>{@link #getSplits} only plans: it reads where the last committed load stopped (the state
 * directory's newest manifest) and the log end offset of every partition, once, so that every attempt
 * of a task reads exactly the same offsets ({@link RangePlanner}); cuts and packs the ranges into splits
 * ({@link SplitPlanner}); and, when {@value #PLAN_PATH_KEY} is set, writes the plan there for the load
 * job's commit. Reading is the {@link MillraceRecordReader}'s. This format never moves an offset:
 * committing them is the load job's business, and a job that only reads leaves the state unchanged.
 */
public class MillraceInputFormat extends InputFormat<MillraceKey, MillraceValue> {

    /** Where {@link #getSplits} writes the plan it made (a JSON {@link LoadPlan}); unset: nowhere. */
    public static final String PLAN_PATH_KEY = "millrace.hadoop.plan.path";

    /**
     * With the avro value format and this set to true, each value is checked against its writer's schema and
     * its event time read, but not decoded into a record ({@link MillraceValue#avroBinary()}): for a job that
     * passes the events on as they came, as the load does. Undecodable values go to the error output as ever.
     */
    public static final String ENCODED_AVRO_KEY = "millrace.hadoop.avro.encoded";

    private static final Logger LOG = LoggerFactory.getLogger(MillraceInputFormat.class);

    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException {
        Configuration conf = context.getConfiguration();
        LoadConfig config = LoadConfig.from(conf);
        LoadPlan plan = plan(config, conf);
        String planPath = conf.get(PLAN_PATH_KEY);
        if (planPath != null) {
            Path path = new Path(planPath);
            JsonFiles.write(path.getFileSystem(conf), path, plan);
        }
        List<InputSplit> splits = new ArrayList<>(new SplitPlanner(config.maxSplitRecords()).plan(plan.ranges()));
        LOG.info("Planned {} offsets in {} partitions as {} splits; {} offsets lost to retention", plan.offsetCount(),
            plan.ranges().size(), splits.size(), plan.lostCount());
        return splits;
    }

    /** The ranges to read now: from the committed offsets in the state directory to the log end offsets. */
    public static LoadPlan plan(LoadConfig config, Configuration conf) throws IOException {
        if (config.topics().isEmpty() && config.topicsRegex() == null) {
            throw new ConfigException("Name the topics to read: " + LoadConfig.TOPICS_CONFIG + " or " + LoadConfig.TOPICS_REGEX_CONFIG);
        }
        StateDir state = StateDir.open(config.stateDir(), conf);
        List<CommittedOffset> committed = state.newest().map(Manifest::offsets).orElse(List.of());
        try (ClusterAccess cluster = new ClusterAccess(config)) {
            List<TopicPartition> partitions = cluster.partitions(config.topics(), config.topicsRegex());
            Map<String, String> ids = cluster.topicIds(partitions.stream().map(TopicPartition::topic).distinct().toList());
            Map<String, String> recreated = RecreatedTopics.find(committed, ids);
            if (!recreated.isEmpty() && !config.restartRecreatedTopics()) {
                throw new TopicRecreatedException("Deleted and created again since the last load (topic id old -> new): "
                    + recreated + ". The committed offsets count messages that are gone, so nothing was loaded. To read "
                    + "these topics from their start again, set " + LoadConfig.RECREATED_TOPIC_CONFIG + "="
                    + LoadConfig.RECREATED_RESTART + ".");
            }
            if (!recreated.isEmpty()) {
                LOG.warn("Deleted and created again since the last load (topic id old -> new): {}; reading them from their "
                    + "start again", recreated);
            }
            Map<TopicPartition, Long> offsets = new TreeMap<>();
            committed.stream().filter(c -> !recreated.containsKey(c.topic()))
                .forEach(c -> offsets.put(c.topicPartition(), c.offset()));
            return new RangePlanner(cluster.reader(), config.newPartitionStartMs()).plan(partitions, offsets)
                .withTopics(ids, List.copyOf(recreated.keySet()));
        }
    }

    @Override
    public RecordReader<MillraceKey, MillraceValue> createRecordReader(InputSplit split, TaskAttemptContext context) {
        return new MillraceRecordReader();
    }
}
