package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class TaskJarsTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void millraceAndTheLibrariesHadoopLacksOrBundlesOlderAreShippedHadoopsOwnAndNettysUnusedModulesAreNot() throws Exception {
        List<String> names = List.of("millrace-audit-0.1.0.jar", "millrace-common-0.1.0-SNAPSHOT.jar",
            "millrace-consumer-0.1.0.jar", "millrace-hadoop-input-0.1.0.jar", "millrace-schema-registry-0.1.0.jar",
            "avro-1.12.1.jar", "jackson-databind-2.22.1.jar", "jackson-annotations-2.22.jar",
            "netty-common-4.1.137.Final.jar", "netty-buffer-4.1.137.Final.jar", "netty-resolver-4.1.137.Final.jar",
            "netty-transport-4.1.137.Final.jar", "netty-codec-4.1.137.Final.jar", "snappy-java-1.1.10.8.jar",
            "lz4-java-1.10.2.jar", "zstd-jni-1.5.6-10.jar",
            "hadoop-common-3.4.1.jar", "hadoop-mapreduce-client-core-3.4.1.jar", "guava-32.0.0-jre.jar",
            "millrace-broker-0.1.0.jar", "avro-mapred-1.12.1.jar", "jackson-jaxrs-base-2.22.1.jar",
            "netty-all-4.1.137.Final.jar", "netty-transport-native-epoll-4.1.137.Final-linux-x86_64.jar",
            "netty-codec-http-4.1.137.Final.jar", "netty-handler-4.1.137.Final.jar",
            "netty-tcnative-boringssl-static-2.0.81.Final-windows-x86_64.jar");
        StringBuilder classPath = new StringBuilder(temp.newFolder("classes").toString());
        for (String name : names) {
            Path jar = temp.getRoot().toPath().resolve(name);
            Files.createFile(jar);
            classPath.append(File.pathSeparator).append(jar);
        }
        List<String> shipped = TaskJars.fromClassPath(classPath.toString()).stream()
            .map(p -> Path.of(p).getFileName().toString()).toList();
        assertEquals(names.subList(0, 16), shipped);
    }

    @Test
    public void onYarnTheJarsGoToTmpjarsWithTheUserClasspathFirstAndLocallyNothingChanges() throws Exception {
        Configuration local = new Configuration(false);
        assertTrue(TaskJars.ship(local).isEmpty());
        assertEquals(null, local.get("tmpjars"));

        Configuration yarn = new Configuration(false);
        yarn.set("mapreduce.framework.name", "yarn");
        yarn.set("tmpjars", "file:/opt/extra.jar");
        List<String> jars = TaskJars.ship(yarn);
        // the test JVM's class path holds Avro, Jackson and Netty as jars, Millrace's modules as directories
        assertTrue(String.valueOf(jars), jars.stream().anyMatch(j -> j.matches(".*/avro-1[^/]*\\.jar")));
        assertTrue(yarn.get("tmpjars"), yarn.get("tmpjars").startsWith("file:/opt/extra.jar,file:"));
        assertTrue(yarn.getBoolean("mapreduce.job.user.classpath.first", false));
    }
}
