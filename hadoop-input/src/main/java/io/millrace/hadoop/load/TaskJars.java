package io.millrace.hadoop.load;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jars a load's tasks need that a Hadoop cluster does not provide, shipped with the job when it
 * runs on YARN: Millrace's own, and the libraries whose versions the loader was built against and
 * Hadoop bundles older ones of (Avro, Jackson, Netty) or not at all (snappy-java, lz4-java, zstd-jni).
 * {@code millrace-audit} is among Millrace's own: with auditing on, the tasks count with its {@code AuditCounter}.
 * They go through {@code tmpjars}, as {@code -libjars} does, and every task has them on its classpath.
 * Hadoop uploads such jars with every job unless they already are on the cluster's file system: a
 * load names their copies in a {@link JarCache}, so each is uploaded once. {@code mapreduce.job.user.classpath.first} (unless set
 * otherwise) puts them before the cluster's jars, so tasks decode with the same Avro and Jackson the
 * client planned with. Hadoop's own jars are never shipped: the cluster's must run the job.
 *
 * <p>Jars are taken from this JVM's class path by name; class directories (a test's target/classes)
 * cannot be shipped and are skipped: a cluster started from the same JVM sees them anyway.
 */
final class TaskJars {

    private static final Logger LOG = LoggerFactory.getLogger(TaskJars.class);

    /**
     * File names of the jars tasks need from the client: artifact id, a dash, a version. Of Netty only
     * the modules the client's NIO connections use: a launcher's class path also holds netty-all, the
     * native transports and TLS libraries of every platform, which no task loads.
     */
    static final Pattern SHIPPED = Pattern.compile(
        "(millrace-(audit|common|consumer|hadoop-input|schema-registry)|avro|jackson-(core|databind|annotations)"
            + "|netty-(common|buffer|resolver|transport|codec)|snappy-java|lz4-java|zstd-jni)-\\d.*\\.jar");

    private TaskJars() {
    }

    /** Adds the jars to {@code conf}'s {@code tmpjars} when the job goes to YARN, as they are; returns them. */
    static List<String> ship(Configuration conf) throws IOException {
        return ship(conf, null);
    }

    /**
     * Adds the jars to {@code conf}'s {@code tmpjars} when the job goes to YARN, each as its copy in
     * {@code cache} (uploaded there once per content) or, with no cache, as the local file; returns the local jars.
     */
    static List<String> ship(Configuration conf, JarCache cache) throws IOException {
        if (!"yarn".equals(conf.get(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME))) {
            return List.of();
        }
        List<String> jars = fromClassPath(System.getProperty("java.class.path", ""));
        if (jars.isEmpty()) {
            return jars;
        }
        Set<String> all = new LinkedHashSet<>(conf.getTrimmedStringCollection("tmpjars"));
        for (String jar : jars) {
            File file = new File(jar);
            all.add(cache == null ? file.toURI().toString() : cache.copyOf(file.toPath()).toString());
        }
        if (cache != null) {
            // Hadoop puts the job's libjars directory on the tasks' classpath with a wildcard, and jars that
            // are already on the cluster (these) are not copied into it: they must be named one by one
            conf.setBoolean(Job.USE_WILDCARD_FOR_LIBJARS, false);
        }
        conf.set("tmpjars", String.join(",", all));
        if (conf.get(MRJobConfig.MAPREDUCE_JOB_USER_CLASSPATH_FIRST) == null) {
            conf.setBoolean(MRJobConfig.MAPREDUCE_JOB_USER_CLASSPATH_FIRST, true);
        }
        LOG.info("Shipping {} jars with the job for its tasks: {}", jars.size(), jars);
        return jars;
    }

    static List<String> fromClassPath(String classPath) {
        List<String> jars = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            File file = new File(entry);
            if (file.isFile() && SHIPPED.matcher(file.getName()).matches()) {
                jars.add(file.getAbsolutePath());
            }
        }
        return jars;
    }
}
