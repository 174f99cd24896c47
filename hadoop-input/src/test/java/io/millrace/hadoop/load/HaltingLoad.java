package io.millrace.hadoop.load;

import io.millrace.hadoop.LoadConfig;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;

/**
 * A load in a JVM of its own that halts (no shutdown hooks, no finally blocks: as a kill -9 would)
 * when it reaches a commit step. Arguments: the load's properties file and the step.
 */
public final class HaltingLoad {

    /** The exit status of a halted load. */
    public static final int HALTED = 137;

    private HaltingLoad() {
    }

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]))) {
            props.load(in);
        }
        CommitStep haltAt = CommitStep.valueOf(args[1]);
        Configuration conf = new Configuration();
        props.stringPropertyNames().forEach(name -> conf.set(name, props.getProperty(name)));
        CommitHook hook = step -> {
            if (step == haltAt) {
                Runtime.getRuntime().halt(HALTED);
            }
        };
        new LoadJob(new LoadConfig(props), conf, hook, LoadMapper.class).run();
        System.exit(0);
    }
}
