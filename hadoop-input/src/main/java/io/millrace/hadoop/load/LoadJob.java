package io.millrace.hadoop.load;

import io.millrace.common.config.ConfigException;
import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HivePartitions;
import io.millrace.hadoop.hive.HiveRegistration;
import io.millrace.hadoop.input.LoadPlan;
import io.millrace.hadoop.input.MillraceInputFormat;
import io.millrace.hadoop.input.PartitionRange;
import io.millrace.hadoop.input.SplitPlanner;
import io.millrace.hadoop.state.HourCount;
import io.millrace.hadoop.state.JsonFiles;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.LoadLock;
import io.millrace.hadoop.state.StateDir;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One load: recovery, a map-only MapReduce job from {@link MillraceInputFormat} into Avro files staged
 * under {@code <state.dir>/loads/<run id>/output}, then the commit:
 * <ol>
 *   <li>check that the tasks' committed reports cover exactly the planned ranges, and the share of
 *       undecodable messages;</li>
 *   <li>write the manifest (offsets reached, files to move, counts, lost ranges, late hours) in the
 *       staging directory and rename it to {@code manifests/<sequence>.json}: the commit point;</li>
 *   <li>move the files, delete the staging directory, write the summary, and with auditing on publish the
 *       load's audit counts ({@link LoadCompletion}).</li>
 * </ol>
 * A crash before the rename leaves the previous state (the next load deletes the staging directory);
 * a crash after it is completed by the next load's {@link Recovery}. The job runs where the Hadoop
 * configuration says: on the LocalJobRunner unless {@code mapreduce.framework.name=yarn}.
 *
 * <p>Once complete, and only when {@value HiveConfig#JDBC_URL_CONFIG} is set, the hours written are added
 * to the topics' Hive tables ({@link HivePartitions}); that step comes after the commit, so its failure is
 * reported ({@link #hiveRegistration}) and never undoes the load.
 */
public final class LoadJob {

    private static final Logger LOG = LoggerFactory.getLogger(LoadJob.class);
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final LoadConfig config;
    private final Configuration hadoopConf;
    private static final int LOCAL_POLL_MS = 50;
    private final CommitHook hook;
    private final Class<? extends LoadMapper> mapper;
    private Counters counters;
    private HiveRegistration hiveRegistration;

    public LoadJob(LoadConfig config, Configuration hadoopConf) {
        this(config, hadoopConf, CommitHook.NONE, LoadMapper.class);
    }

    /** A load whose commit steps are reported to {@code hook} and whose map tasks run {@code mapper} (tests). */
    public LoadJob(LoadConfig config, Configuration hadoopConf, CommitHook hook, Class<? extends LoadMapper> mapper) {
        config.validateForLoad();
        new HiveConfig(config.originals()); // bad Hive settings fail the load before it reads anything
        this.config = config;
        this.hadoopConf = new Configuration(hadoopConf);
        NioLocalFileSystem.useIn(this.hadoopConf);
        this.hook = hook;
        this.mapper = mapper;
    }

    /**
     * Runs the load; returns its summary, or null when there was nothing new to load.
     *
     * @throws LoadFailedException when the job failed or too many messages were undecodable (nothing committed)
     * @throws LoadIncompleteException when the load committed and then failed to complete (the next load completes it)
     */
    public LoadSummary run() throws IOException, InterruptedException {
        StateDir state = StateDir.open(config.stateDir(), hadoopConf);
        Path dataRoot = state.fs().makeQualified(new Path(config.dataRoot()));
        checkSameFileSystem(state, dataRoot);
        // unique even when a crashed attempt of the same sequence left its staging directory behind
        String runId = RUN_ID_TIME.format(Instant.now()) + "-"
            + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0x100000));
        // Recovery deletes staging directories: only while no other load can be staging or committing.
        try (LoadLock lock = LoadLock.acquire(state, runId, config.lockLeaseMs())) {
            List<LoadSummary> completed = new ArrayList<>(new Recovery(state, hook, new LoadAudit(state, config, hook)).run());
            try {
                LoadSummary summary = loadNew(state, dataRoot, runId);
                if (summary != null) {
                    completed.add(summary);
                }
                return summary;
            } finally {
                // after the commit, and after the loads recovery completed even when this one failed
                hiveRegistration = registerInHive(completed, dataRoot);
            }
        }
    }

    private LoadSummary loadNew(StateDir state, Path dataRoot, String lockRunId) throws IOException, InterruptedException {
        Manifest previous = state.newest().orElse(null);
        long sequence = previous == null ? 1 : previous.sequence() + 1;
        String runId = StateDir.name(sequence) + "-" + lockRunId;
        Path loadDir = state.loadDir(runId);
        JarCache jars = new JarCache(state.fs(), state.jars());
        Job job = newJob(sequence, loadDir, jars);
        LOG.info("Load {} ({}) starting: staging in {}", sequence, runId, loadDir);
        boolean succeeded = succeeded(job);
        jars.pruneUnnamed();   // still under the load lock: no other job of this state directory runs
        counters = job.getCounters();
        if (!succeeded) {
            state.fs().delete(loadDir, true);
            throw new LoadFailedException("The job of load " + sequence + " (" + job.getJobID() + ") failed: "
                + job.getStatus().getFailureInfo() + ". Nothing was committed; the next load reads the same offsets.");
        }
        hook.reached(CommitStep.JOB_SUCCEEDED);
        return commit(state, job, sequence, runId, previous, dataRoot);
    }

    /**
     * What registering the loaded hours in Hive came to: null when {@value HiveConfig#JDBC_URL_CONFIG} is
     * not set (nothing was tried), or before {@link #run}. The hours are those of this load and of the
     * committed loads its recovery completed. A failure here never undoes the commit: it is reported, with
     * the command that catches the table up.
     */
    public HiveRegistration hiveRegistration() {
        return hiveRegistration;
    }

    /**
     * Adds every hour the loads wrote, late hours included, as partitions of their topics' tables, each
     * topic on its own. The partitions point into {@code dataRoot} as the loader resolved it, so a data root
     * given without a file system is not resolved again against Hive's.
     */
    private HiveRegistration registerInHive(List<LoadSummary> loads, Path dataRoot) {
        Map<String, Object> settings = new HashMap<>(config.originals());
        settings.put(LoadConfig.DATA_ROOT_CONFIG, dataRoot.toString());
        HivePartitions hive = new HivePartitions(settings);
        return hive.enabled() ? hive.registerEach(hoursByTopic(loads)) : null;
    }

    private static Map<String, List<Instant>> hoursByTopic(List<LoadSummary> loads) {
        Map<String, List<Instant>> hours = new TreeMap<>();
        for (LoadSummary load : loads) {
            for (HourCount count : load.counts()) {
                hours.computeIfAbsent(count.topic(), topic -> new ArrayList<>()).add(HourLayout.fromLabel(count.hour()));
            }
        }
        return hours;
    }

    /** The counters of the last job this load ran (null before it ran one), e.g. {@code LoaderCounter.LOST_OFFSETS}. */
    public Counters counters() {
        return counters;
    }

    private static boolean succeeded(Job job) throws IOException, InterruptedException {
        try {
            return job.waitForCompletion(LOG.isInfoEnabled());
        } catch (ClassNotFoundException e) {
            throw new IOException("A class of the load job is missing from the classpath: " + e.getMessage(), e);
        }
    }

    private LoadSummary commit(StateDir state, Job job, long sequence, String runId, Manifest previous, Path dataRoot)
        throws IOException {
        FileSystem fs = state.fs();
        Path loadDir = state.loadDir(runId);
        LoadPlan plan = JsonFiles.read(fs, new Path(loadDir, "plan.json"), LoadPlan.class);
        if (plan.isEmpty()) {
            LOG.info("Load {}: nothing new to load", sequence);
            fs.delete(loadDir, true);
            return null;
        }
        Path output = new Path(loadDir, "output");
        List<TaskReport> reports = readReports(fs, output);
        checkCoverage(plan, reports);
        checkErrors(state, runId, reports);
        Manifest manifest = new ManifestBuilder(fs, output, dataRoot, state.errors(sequence))
            .build(sequence, runId, previous, plan, reports, config.auditEnabled());
        Path written = new Path(loadDir, "manifest.json");
        JsonFiles.write(fs, written, manifest);
        hook.reached(CommitStep.MANIFEST_WRITTEN);
        state.commit(written, sequence);
        hook.reached(CommitStep.COMMITTED);
        LOG.info("Load {} committed: {} events, offsets of {} partitions", sequence, manifest.records(), manifest.offsets().size());
        try {
            return new LoadCompletion(state, hook, new LoadAudit(state, config, hook)).complete(manifest);
        } catch (IOException | RuntimeException e) {
            throw new LoadIncompleteException(manifest, e);
        }
    }

    private Job newJob(long sequence, Path loadDir, JarCache jars) throws IOException {
        Configuration conf = new Configuration(hadoopConf);
        config.writeTo(conf);
        conf.set(LoadConfig.VALUE_FORMAT_CONFIG, "avro");
        // the events are written as they came: checked and their time read, but not decoded
        conf.setBoolean(MillraceInputFormat.ENCODED_AVRO_KEY, true);
        conf.set(MillraceInputFormat.PLAN_PATH_KEY, new Path(loadDir, "plan.json").toString());
        // v1: an attempt's files move into the output only when it commits, and the job's only when the job does
        conf.setInt("mapreduce.fileoutputcommitter.algorithm.version", 1);
        conf.setBoolean("mapreduce.map.speculative", false);
        Job job = Job.getInstance(conf, "millrace load " + sequence);
        // on the job's configuration: only it has mapred-site.xml, where a cluster says it runs YARN
        TaskJars.ship(job.getConfiguration(), jars);
        pollOftenWhenLocal(job.getConfiguration());
        job.setJarByClass(LoadJob.class);
        job.setInputFormatClass(MillraceInputFormat.class);
        job.setMapperClass(mapper);
        job.setNumReduceTasks(0);
        job.setOutputFormatClass(StagedOutputFormat.class);
        job.setOutputKeyClass(NullWritable.class);
        job.setOutputValueClass(NullWritable.class);
        FileOutputFormat.setOutputPath(job, new Path(loadDir, "output"));
        return job;
    }

    /**
     * On the LocalJobRunner the job runs in this JVM, so asking whether it is done costs nothing; Hadoop's
     * client still asks only every second (every 5 s when it prints no progress), which a small load
     * spends waiting after its tasks are done. A setting of the user's own is kept.
     */
    static void pollOftenWhenLocal(Configuration jobConf) {
        if (MRConfig.LOCAL_FRAMEWORK_NAME.equals(jobConf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME))) {
            for (String key : List.of(Job.COMPLETION_POLL_INTERVAL_KEY, Job.PROGRESS_MONITOR_POLL_INTERVAL_KEY)) {
                if (onlyHadoopsDefault(jobConf, key)) {
                    jobConf.setInt(key, LOCAL_POLL_MS);
                }
            }
        }
    }

    /** Whether {@code key} has no value but what Hadoop's own {@code *-default.xml} files give it. */
    private static boolean onlyHadoopsDefault(Configuration conf, String key) {
        String[] sources = conf.getPropertySources(key);
        return sources == null || Arrays.stream(sources).allMatch(source -> source.endsWith("-default.xml"));
    }

    private static List<TaskReport> readReports(FileSystem fs, Path output) throws IOException {
        List<TaskReport> reports = new ArrayList<>();
        FileStatus[] files;
        try {
            files = fs.listStatus(new Path(output, TaskReport.DIRECTORY));
        } catch (FileNotFoundException e) {
            files = new FileStatus[0];
        }
        for (FileStatus file : files) {
            if (file.getPath().getName().endsWith(".json")) {
                reports.add(JsonFiles.read(fs, file.getPath(), TaskReport.class));
            }
        }
        return reports;
    }

    /** Every planned chunk read by exactly one committed task: the job's output is the plan, no more, no less. */
    private void checkCoverage(LoadPlan plan, List<TaskReport> reports) throws LoadFailedException {
        Comparator<PartitionRange> order = Comparator.comparing(PartitionRange::topic).thenComparingInt(PartitionRange::partition)
            .thenComparingLong(PartitionRange::start);
        List<PartitionRange> planned = new SplitPlanner(config.maxSplitRecords()).plan(plan.ranges()).stream()
            .flatMap(split -> split.ranges().stream()).sorted(order).toList();
        List<PartitionRange> read = reports.stream().flatMap(r -> r.ranges().stream()).sorted(order).toList();
        if (!Objects.equals(planned, read)) {
            throw new LoadFailedException("The job's committed task reports do not cover the plan: planned " + planned
                + ", read " + read + ". Nothing was committed.");
        }
    }

    private void checkErrors(StateDir state, String runId, List<TaskReport> reports) throws IOException {
        long read = reports.stream().mapToLong(TaskReport::messagesRead).sum();
        long undecodable = reports.stream().mapToLong(TaskReport::undecodable).sum();
        if (undecodable == 0 || undecodable * 100.0 <= config.maxErrorPercent() * read) {
            return;
        }
        Path kept = state.failed(runId);
        state.fs().mkdirs(kept.getParent());
        state.fs().rename(state.loadDir(runId), kept);
        throw new LoadFailedException(String.format("%d of %d messages (%.3f%%) could not be decoded, more than %s=%s%%. "
            + "Nothing was committed; the undecodable messages are in %s/output/errors.", undecodable, read,
            undecodable * 100.0 / read, LoadConfig.MAX_ERROR_PERCENT_CONFIG, config.maxErrorPercent(), kept));
    }

    private static void checkSameFileSystem(StateDir state, Path dataRoot) {
        if (!Objects.equals(state.root().toUri().getScheme(), dataRoot.toUri().getScheme())
            || !Objects.equals(state.root().toUri().getAuthority(), dataRoot.toUri().getAuthority())) {
            throw new ConfigException("The data root " + dataRoot + " and the state directory " + state.root() + " must be on "
                + "one file system: a load publishes its files by renaming them from the state directory");
        }
    }
}
