package io.millrace.distribution;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;

/**
 * A Hadoop cluster in a process of its own, as a user's cluster is: HDFS and YARN (one data node, one
 * node manager), started by {@code main(confDir, workDir)}. Its class path is Hadoop's alone (no Millrace,
 * no compression codecs), and the containers it starts get that same class path as the cluster's
 * installation, nothing of the client's: whatever else a job needs, it must ship. When up it writes its
 * client configuration to {@code confDir} (core-, hdfs-, yarn- and mapred-site.xml) and then {@code confDir/ready}, and runs until
 * its standard input closes or it is killed.
 */
public final class MiniHadoop {

    private MiniHadoop() {
    }

    public static void main(String[] args) {
        try {
            run(Path.of(args[0]), Path.of(args[1]));
            System.exit(0);
        } catch (Throwable t) {
            // Hadoop's non-daemon threads would keep a failed start alive
            t.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(Path confDir, Path work) throws Exception {
        Configuration base = new Configuration();
        base.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("dfs").toString());
        base.set("hadoop.tmp.dir", work.resolve("tmp").toString());
        MiniDFSCluster dfs = new MiniDFSCluster.Builder(base).numDataNodes(1).build();
        base.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
        base.setInt("yarn.nodemanager.resource.memory-mb", 4096);
        base.setInt("yarn.scheduler.minimum-allocation-mb", 256);
        base.setInt("mapreduce.map.memory.mb", 512);
        base.setInt("yarn.app.mapreduce.am.resource.mb", 512);
        base.set("mapreduce.map.java.opts", "-Xmx300m");
        base.set("yarn.app.mapreduce.am.command-opts", "-Xmx300m");
        MiniMRYarnCluster yarn = new MiniMRYarnCluster("millrace-release", 1);
        yarn.init(base);
        yarn.start();

        Configuration client = new Configuration(yarn.getConfig());
        // The client must not lend the containers its own class path (what a mini cluster in the same
        // JVM does): the cluster's installation is this process's class path.
        client.setBoolean("yarn.is.minicluster", false);
        String hadoopJars = String.join(",", System.getProperty("java.class.path").split(File.pathSeparator));
        client.set("yarn.application.classpath", hadoopJars);
        client.set("mapreduce.application.classpath", hadoopJars);
        client.set("mapreduce.framework.name", "yarn");
        writeSiteFiles(client, confDir);
        Files.writeString(confDir.resolve("ready"), dfs.getFileSystem().getUri().toString());
        try {
            while (System.in.read() >= 0) {
                // run until the parent closes our standard input (or goes away)
            }
        } finally {
            yarn.stop();
            dfs.shutdown();
        }
    }

    /**
     * The configuration as a cluster's conf directory holds it, each setting in the file of its family:
     * {@code mapred-default.xml} and {@code yarn-default.xml} are loaded after {@code core-site.xml}, so a
     * MapReduce or YARN setting there would lose to its default.
     */
    private static void writeSiteFiles(Configuration all, Path confDir) throws Exception {
        Map<String, Configuration> files = new LinkedHashMap<>();
        for (String file : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml")) {
            files.put(file, new Configuration(false));
        }
        for (Map.Entry<String, String> setting : all) {
            String name = setting.getKey();
            String file = name.startsWith("yarn.") ? "yarn-site.xml"
                : name.startsWith("mapreduce.") || name.startsWith("mapred.") ? "mapred-site.xml"
                : name.startsWith("dfs.") ? "hdfs-site.xml" : "core-site.xml";
            files.get(file).set(name, all.get(name));
        }
        Files.createDirectories(confDir);
        for (Map.Entry<String, Configuration> file : files.entrySet()) {
            try (OutputStream out = Files.newOutputStream(confDir.resolve(file.getKey()))) {
                file.getValue().writeXml(out);
            }
        }
    }
}
