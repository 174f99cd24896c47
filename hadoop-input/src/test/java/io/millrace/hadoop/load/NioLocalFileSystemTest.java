package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The local file system that sets permissions without forking: the same permissions, files and checksums as Hadoop's. */
public class NioLocalFileSystemTest {

    @Rule
    public TemporaryFolder tmp = new TemporaryFolder();

    private FileSystem fs;

    @Before
    public void open() throws Exception {
        fs = new NioLocalFileSystem();
        fs.initialize(new File("/").toURI(), new Configuration());
    }

    @After
    public void close() throws Exception {
        fs.close();
    }

    @Test
    public void modeBitsBecomeThePosixPermissionsChmodWouldSet() {
        assertEquals(PosixFilePermissions.fromString("rwxr-xr-x"), NioLocalFileSystem.Raw.posix((short) 0755));
        assertEquals(PosixFilePermissions.fromString("rw-r-----"), NioLocalFileSystem.Raw.posix((short) 0640));
        assertEquals(PosixFilePermissions.fromString("-w---x-wx"), NioLocalFileSystem.Raw.posix((short) 0213));
        assertEquals(PosixFilePermissions.fromString("---------"), NioLocalFileSystem.Raw.posix((short) 0));
    }

    @Test
    public void createdFilesAndDirectoriesGetTheirPermissionsAndFilesTheirChecksums() throws Exception {
        Path dir = new Path(tmp.getRoot().toURI().toString(), "a/b");
        assertTrue(fs.mkdirs(dir, new FsPermission((short) 0750)));
        assertEquals("rwxr-x---", posixOf(dir));

        Path file = new Path(dir, "events.avro");
        try (FSDataOutputStream out = fs.create(file, new FsPermission((short) 0640), false, 4096, (short) 1, 1 << 20, null)) {
            out.write("twelve bytes".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals("rw-r-----", posixOf(file));
        assertTrue("the checksum file is written as Hadoop writes it", fs.exists(new Path(dir, ".events.avro.crc")));
        byte[] read = new byte[12];
        try (FSDataInputStream in = fs.open(file)) {
            in.readFully(read);
        }
        assertEquals("twelve bytes", new String(read, StandardCharsets.UTF_8));

        fs.setPermission(file, new FsPermission((short) 0604));
        assertEquals("rw----r--", posixOf(file));
        fs.setPermission(dir, new FsPermission((short) 01777));
        assertEquals("the sticky bit goes to Hadoop's own way", "rwxrwxrwt", fs.getFileStatus(dir).getPermission().toString());
    }

    @Test
    public void aLoadUsesItUnlessAnotherLocalFileSystemWasChosen() {
        Configuration conf = new Configuration(false);
        NioLocalFileSystem.useIn(conf);
        assertEquals(NioLocalFileSystem.class.getName(), conf.get("fs.file.impl"));

        Configuration chosen = new Configuration(false);
        chosen.set("fs.file.impl", "org.apache.hadoop.fs.LocalFileSystem");
        NioLocalFileSystem.useIn(chosen);
        assertEquals("org.apache.hadoop.fs.LocalFileSystem", chosen.get("fs.file.impl"));
    }

    private String posixOf(Path path) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(new File(path.toUri()).toPath()));
    }
}
