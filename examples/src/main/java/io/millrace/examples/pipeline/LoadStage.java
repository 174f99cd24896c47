package io.millrace.examples.pipeline;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.load.CommitHook;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.load.LoadMapper;
import io.millrace.hadoop.state.LoadSummary;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The demo's Hadoop load: the offline cluster's event topics into a local directory in Hive's hourly layout,
 * on Hadoop's LocalJobRunner, with the loader's audit tier on (it publishes after its commit point).
 */
final class LoadStage {

    private LoadStage() {
    }

    /** Loads {@code topics} of {@code offline} under {@code dir} ({@code data/} the files, {@code state/} the offsets). */
    static LoadSummary run(DataCentre offline, List<String> topics, Path dir) throws Exception {
        return run(offline, topics, dir, LoadMapper.class);
    }

    /** As {@link #run(DataCentre, List, Path)}, its map tasks running {@code mapper}. */
    static LoadSummary run(DataCentre offline, List<String> topics, Path dir, Class<? extends LoadMapper> mapper)
        throws Exception {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", offline.bootstrapServers());
        settings.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, offline.registryUrl());
        settings.put(LoadConfig.TOPICS_CONFIG, String.join(",", topics));
        settings.put(LoadConfig.DATA_ROOT_CONFIG, dir.resolve("data").toUri().toString());
        settings.put(LoadConfig.STATE_DIR_CONFIG, dir.resolve("state").toUri().toString());
        settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put(LoadConfig.AUDIT_CLUSTER_CONFIG, offline.name());
        return new LoadJob(new LoadConfig(settings), localJobConf(dir), CommitHook.NONE, mapper).run();
    }

    /** The LocalJobRunner on the local file system, its scratch space under {@code dir}. */
    private static Configuration localJobConf(Path dir) {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        return conf;
    }
}
