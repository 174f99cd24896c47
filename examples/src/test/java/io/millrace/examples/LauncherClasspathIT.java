package io.millrace.examples;

import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * bin/millrace as a user runs it, after the package phase: the caller's CLASSPATH comes before
 * Millrace's jars, and for the Hadoop commands HADOOP_CONF_DIR's *-site.xml files apply. The marker is
 * a core-site.xml whose default file system has a scheme nobody provides: the load then fails
 * naming it, which it can only do if the file was on its classpath.
 */
public class LauncherClasspathIT {

    private static final String MARKER = "millrace-launcher-marker";

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void hadoopConfDirAndClasspathReachTheLoadAndTheirAbsenceDoesNot() throws Exception {
        Path conf = temp.newFolder("conf").toPath();
        Files.writeString(conf.resolve("core-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>\n"
            + "  <property><name>fs.defaultFS</name><value>" + MARKER + ":///</value></property>\n</configuration>\n");

        Run plain = load(Map.of());
        assertTrue(plain.err, !plain.err.contains(MARKER));

        Run withConfDir = load(Map.of("HADOOP_CONF_DIR", conf.toString()));
        assertNotEquals(0, withConfDir.exit);
        assertTrue("HADOOP_CONF_DIR's core-site.xml applies: " + withConfDir.err, withConfDir.err.contains(MARKER));

        Run withClasspath = load(Map.of("CLASSPATH", conf.toString()));
        assertTrue("CLASSPATH comes first: " + withClasspath.err, withClasspath.err.contains(MARKER));
    }

    private record Run(int exit, String err) {
    }

    private Run load(Map<String, String> env) throws IOException, InterruptedException {
        Path state = temp.newFolder().toPath();
        ProcessBuilder builder = new ProcessBuilder(List.of("bash", Path.of("..", "bin", "millrace").toString(), "load",
            "--topics", "absent",
            "--override", "bootstrap.servers=127.0.0.1:1",
            "--override", "schema.registry.url=http://127.0.0.1:1",
            "--override", "millrace.hadoop.state.dir=" + state.resolve("state"),
            "--override", "millrace.hadoop.data.root=" + state.resolve("data")));
        builder.environment().remove("CLASSPATH");
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().remove("HADOOP_CLASSPATH");
        builder.environment().putAll(env);
        Path err = temp.newFile().toPath();
        builder.redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("bin/millrace load did not finish: " + Files.readString(err));
        }
        return new Run(process.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }
}
