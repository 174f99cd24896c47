package io.millrace.hadoop.load;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The jars a load ships, uploaded once per content into the state directory. */
public class JarCacheTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void aJarIsUploadedOnceAndAgainOnlyWhenItsContentChanges() throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
        Path dir = new Path(tmp.newFolder("state").toURI().toString(), "jars");
        JarCache cache = new JarCache(fs, dir);
        java.nio.file.Path jar = tmp.getRoot().toPath().resolve("avro-1.12.2.jar");
        Files.writeString(jar, "first build", StandardCharsets.UTF_8);

        Path first = cache.copyOf(jar);
        assertTrue(first.getName(), first.getName().matches("[0-9a-f]{16}-avro-1\\.12\\.2\\.jar"));
        assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(new File(first.toUri()).toPath()));
        long uploaded = fs.getFileStatus(first).getModificationTime();
        Thread.sleep(20);
        assertEquals(first, cache.copyOf(jar));
        assertEquals("not uploaded again", uploaded, fs.getFileStatus(first).getModificationTime());

        Files.writeString(jar, "second build, same name", StandardCharsets.UTF_8);
        Path second = cache.copyOf(jar);
        assertNotEquals(first, second);
        assertEquals("second build, same name", Files.readString(new File(second.toUri()).toPath()));
        List<String> names = Arrays.stream(fs.listStatus(dir)).map(FileStatus::getPath).map(Path::getName).sorted().toList();
        assertEquals("both versions, no temporary left", List.of(first.getName(), second.getName()).stream().sorted().toList(), names);
    }

    @Test
    public void onceTheJobIsOverWhatTheLoadDidNotNameIsDeleted() throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
        Path dir = new Path(tmp.newFolder("state").toURI().toString(), "jars");
        java.nio.file.Path avro = tmp.getRoot().toPath().resolve("avro.jar");
        java.nio.file.Path gone = tmp.getRoot().toPath().resolve("no-longer-shipped.jar");
        Files.writeString(avro, "old build", StandardCharsets.UTF_8);
        Files.writeString(gone, "old build", StandardCharsets.UTF_8);
        JarCache earlier = new JarCache(fs, dir);
        Path oldAvro = earlier.copyOf(avro);
        Path oldGone = earlier.copyOf(gone);
        assertEquals("the earlier load named both", 0, earlier.pruneUnnamed());
        fs.create(new Path(dir, "." + oldAvro.getName() + ".1a2b")).close();   // an upload that crashed

        Files.writeString(avro, "new build", StandardCharsets.UTF_8);
        JarCache later = new JarCache(fs, dir);
        Path newAvro = later.copyOf(avro);
        assertEquals(3, later.pruneUnnamed());
        assertEquals(List.of(newAvro.getName()), Arrays.stream(fs.listStatus(dir)).map(f -> f.getPath().getName()).toList());
        assertFalse(fs.exists(oldAvro));
        assertFalse(fs.exists(oldGone));
        assertEquals("new build", Files.readString(new File(newAvro.toUri()).toPath()));
    }

    @Test
    public void aLoadThatNamedNothingDeletesNothing() throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
        Path dir = new Path(tmp.newFolder("state").toURI().toString(), "jars");
        java.nio.file.Path jar = tmp.getRoot().toPath().resolve("avro.jar");
        Files.writeString(jar, "a build", StandardCharsets.UTF_8);
        Path cached = new JarCache(fs, dir).copyOf(jar);
        assertEquals("on the LocalJobRunner no jar is shipped", 0, new JarCache(fs, dir).pruneUnnamed());
        assertTrue(fs.exists(cached));
    }

    @Test
    public void onYarnTmpjarsNamesTheCachedCopies() throws Exception {
        FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
        Path dir = new Path(tmp.newFolder("state").toURI().toString(), "jars");
        Configuration yarn = new Configuration(false);
        yarn.set("mapreduce.framework.name", "yarn");
        List<String> jars = TaskJars.ship(yarn, new JarCache(fs, dir));
        // the test JVM's class path holds Avro, Jackson and Netty as jars
        assertTrue(String.valueOf(jars), jars.size() > 1);
        assertFalse("named one by one on the tasks' classpath, not as the libjars directory's wildcard",
            yarn.getBoolean("mapreduce.client.libjars.wildcard", true));
        List<String> tmpjars = List.of(yarn.get("tmpjars").split(","));
        assertEquals(jars.size(), tmpjars.size());
        for (String shipped : tmpjars) {
            assertTrue(shipped, shipped.startsWith(dir.toString() + "/"));
            assertTrue(shipped, fs.exists(new Path(shipped)));
        }
    }
}
