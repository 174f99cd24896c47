package io.millrace.hadoop.input;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.state.JsonFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** The InputFormat alone, in a job on the LocalJobRunner, against a real broker and registry. */
public class MillraceInputFormatTest {

    private static LoaderCluster cluster;
    private static final List<SentEvent> SENT = new ArrayList<>();

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
        for (String topic : List.of("clicks", "views")) {
            cluster.createTopic(topic, 3);
            SENT.addAll(cluster.produce(topic, 3, 150, 3, 0));
        }
        cluster.createTopic("other", 1);
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Writes every message it gets as a line: topic, partition, offset, payload (or - when not decoded). */
    public static class LineMapper extends Mapper<MillraceKey, MillraceValue, Text, NullWritable> {
        @Override
        protected void map(MillraceKey key, MillraceValue value, Context context) throws IOException, InterruptedException {
            String payload = value.record() == null ? "-" : value.record().get("payload").toString();
            context.write(new Text(key.topic() + "\t" + key.partition() + "\t" + key.offset() + "\t" + payload
                + "\t" + value.value().length), NullWritable.get());
        }
    }

    @Test
    public void aJobReadsEveryMessageOfTheTopicsOnceAndDecodesIt() throws Exception {
        Map<String, Object> settings = cluster.loadSettings("decode", "clicks");
        settings.put(LoadConfig.TOPICS_REGEX_CONFIG, "vi.*");
        settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 200);
        List<String[]> lines = runJob(settings, "decode");
        assertEquals(SENT.size(), lines.size());
        assertEquals(SENT.stream().map(SentEvent::payload).sorted().toList(), lines.stream().map(l -> l[3]).sorted().toList());
        for (String[] line : lines) {
            assertTrue(line[3], line[3].startsWith(line[0] + "/" + line[1] + "/"));
        }
    }

    @Test
    public void rawValuesAreTheMessageBytesAndThePlanIsWritten() throws Exception {
        Map<String, Object> settings = cluster.loadSettings("raw", "clicks", "views");
        settings.put(LoadConfig.VALUE_FORMAT_CONFIG, "raw");
        settings.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, "");
        List<String[]> lines = runJob(settings, "raw");
        assertEquals(SENT.size(), lines.size());
        assertTrue(lines.stream().allMatch(l -> l[3].equals("-") && Integer.parseInt(l[4]) > 5));
        Path plan = cluster.dir().resolve("raw").resolve("plan.json");
        LoadPlan read = JsonFiles.read(FileSystem.getLocal(new Configuration()), new org.apache.hadoop.fs.Path(plan.toUri()),
            LoadPlan.class);
        assertEquals(6, read.ranges().size());
        assertEquals(SENT.size(), read.offsetCount());
        assertTrue(read.lost().isEmpty());
    }

    @Test
    public void theOldApiAdapterReadsTheSameMessages() throws Exception {
        Map<String, Object> settings = cluster.loadSettings("mapred", "views");
        settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 100);
        org.apache.hadoop.mapred.JobConf job = new org.apache.hadoop.mapred.JobConf(cluster.localJobConf());
        new LoadConfig(settings).writeTo(job);
        io.millrace.hadoop.input.mapred.MapredMillraceInputFormat format = new io.millrace.hadoop.input.mapred.MapredMillraceInputFormat();
        List<String> payloads = new ArrayList<>();
        for (org.apache.hadoop.mapred.InputSplit split : format.getSplits(job, 1)) {
            org.apache.hadoop.mapred.RecordReader<MillraceKey, MillraceValue> reader =
                format.getRecordReader(split, job, org.apache.hadoop.mapred.Reporter.NULL);
            MillraceKey key = reader.createKey();
            MillraceValue value = reader.createValue();
            while (reader.next(key, value)) {
                payloads.add(value.record().get("payload").toString());
            }
            reader.close();
        }
        assertEquals(SENT.stream().filter(e -> e.topic().equals("views")).map(SentEvent::payload).sorted().toList(),
            payloads.stream().sorted().toList());
    }

    private List<String[]> runJob(Map<String, Object> settings, String name) throws Exception {
        Configuration conf = cluster.localJobConf();
        new LoadConfig(settings).writeTo(conf);
        conf.set(MillraceInputFormat.PLAN_PATH_KEY, cluster.dir().resolve(name).resolve("plan.json").toUri().toString());
        Job job = Job.getInstance(conf, "read " + name);
        job.setInputFormatClass(MillraceInputFormat.class);
        job.setMapperClass(LineMapper.class);
        job.setNumReduceTasks(0);
        job.setOutputKeyClass(Text.class);
        job.setOutputValueClass(NullWritable.class);
        job.setOutputFormatClass(TextOutputFormat.class);
        Path out = cluster.dir().resolve(name).resolve("out");
        FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out.toUri()));
        assertTrue("the job succeeds", job.waitForCompletion(false));
        assertEquals(SENT.size(), job.getCounters().findCounter(LoaderCounter.MESSAGES_READ).getValue());
        List<String[]> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    lines.add(line.split("\t"));
                }
            }
        }
        return lines;
    }
}
