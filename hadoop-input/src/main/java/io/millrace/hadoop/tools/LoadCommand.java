package io.millrace.hadoop.tools;

import io.millrace.common.config.ConfigException;
import io.millrace.common.config.ServerArguments;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HiveRegistration;
import io.millrace.hadoop.input.TopicRecreatedException;
import io.millrace.hadoop.load.CommitHook;
import io.millrace.hadoop.load.LoadFailedException;
import io.millrace.hadoop.load.LoadIncompleteException;
import io.millrace.hadoop.load.LoadMapper;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.state.JsonFiles;
import io.millrace.hadoop.state.LoadSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code bin/millrace load --topics T1,T2 [--config FILE] [--override key=value ...]}: one load of the
 * topics' new messages into the data root. Every {@link LoadConfig} setting, consumer setting and Hadoop
 * setting may be in the file or an override; Hadoop's own *-site.xml files on the classpath apply
 * first. Prints the load's summary as JSON on stdout, with a field {@code hive} when the hours were
 * registered in Hive ({@value HiveConfig#JDBC_URL_CONFIG} set). Exit status: 0 loaded (or nothing new),
 * 1 the load failed and committed nothing, 2 bad arguments or settings, 3 the load is committed but
 * Hive did not get the hours of some topic (stderr names the topics and the command that repairs them;
 * running the load again would not: it registers only what it loads), 4 the load is committed but
 * failed after its commit point (stderr says what was committed; the next load completes it).
 */
public final class LoadCommand {

    private static final String USAGE = "Usage: bin/millrace load --topics T1,T2 [--config FILE] [--override key=value ...]\n"
        + "  Loads the new messages of the topics into <millrace.hadoop.data.root> as Avro files by event hour.\n"
        + "  Needs bootstrap.servers (or zookeeper.connect), schema.registry.url, millrace.hadoop.data.root and\n"
        + "  millrace.hadoop.state.dir; see docs/hadoop.md. --topics may be left out when the settings name\n"
        + "  millrace.hadoop.topics or millrace.hadoop.topics.regex.\n"
        + "  Exit status: 0 loaded, 1 failed (nothing committed), 2 bad arguments or settings, 3 loaded but the\n"
        + "  Hive partitions of some topic not registered (see stderr), 4 committed but not completed (the next\n"
        + "  load completes it; see stderr).";

    /** The load committed, but registering its hours in Hive failed for some topic. */
    static final int HIVE_REGISTRATION_FAILED = 3;

    /** The load committed, then failed before it was complete; the next load completes it. */
    static final int COMMITTED_INCOMPLETE = 4;

    private LoadCommand() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        return run(args, out, err, CommitHook.NONE);
    }

    /** {@link #run(String[], PrintStream, PrintStream)} with the load's commit steps reported to {@code hook} (tests). */
    static int run(String[] args, PrintStream out, PrintStream err, CommitHook hook) throws InterruptedException {
        Properties props;
        try {
            props = parse(args);
        } catch (IllegalArgumentException | IOException e) {
            err.println("millrace load: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (props == null) {
            out.println(USAGE);
            return 0;
        }
        try {
            LoadJob load = new LoadJob(new LoadConfig(props), hadoopConf(props), hook, LoadMapper.class);
            LoadSummary summary = load.run();
            return report(summary, load.hiveRegistration(), out, err);
        } catch (ConfigException e) {
            err.println("millrace load: " + e.getMessage());
            return 2;
        } catch (LoadIncompleteException e) {
            err.println("millrace load: " + e.getMessage());
            return COMMITTED_INCOMPLETE;
        } catch (LoadFailedException | TopicRecreatedException e) {
            err.println("millrace load failed: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("millrace load failed: " + e);
            return 1;
        }
    }

    /** Prints the summary (and the Hive registration, if there was one); the exit status. */
    private static int report(LoadSummary summary, HiveRegistration hive, PrintStream out, PrintStream err) throws IOException {
        Object printed = summary == null ? new NothingNew(0, "nothing new to load") : summary;
        out.println(hive == null ? JsonFiles.toJson(printed) : JsonFiles.toJson(printed, "hive", hive));
        if (hive == null || !hive.anyFailed()) {
            return 0;
        }
        for (HiveRegistration.Failed failed : hive.failed()) {
            err.println("millrace load: the load is committed, but Hive did not get the " + failed.hours().size()
                + " hours of topic " + failed.topic() + ": " + failed.error() + "\n  Register them with: " + failed.repair()
                + " (with this load's --config/--override), then run what it prints in Hive.");
        }
        return HIVE_REGISTRATION_FAILED;
    }

    /** What is printed when a load found nothing new. */
    private record NothingNew(long records, String note) {
    }

    /** The settings: --config and --override as every server takes them, plus --topics; null for --help. */
    static Properties parse(String[] args) throws IOException {
        List<String> rest = new ArrayList<>();
        String topics = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--topics")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("--topics needs a value");
                }
                topics = args[++i];
            } else {
                rest.add(args[i]);
            }
        }
        Properties props = ServerArguments.parse(rest.toArray(String[]::new));
        if (props != null && topics != null) {
            props.setProperty(LoadConfig.TOPICS_CONFIG, topics);
        }
        return props;
    }

    /** Hadoop's configuration (its *-site.xml files, if on the classpath) with every setting given on top. */
    private static Configuration hadoopConf(Properties props) {
        Configuration conf = new Configuration();
        props.stringPropertyNames().forEach(name -> conf.set(name, props.getProperty(name)));
        return conf;
    }
}
