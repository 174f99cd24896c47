package io.millrace.hadoop.state;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The commit point on file://: of loads committing the same sequence at the same instant, exactly one wins. */
public class ConcurrentCommitTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void ofTwoLoadsCommittingOneSequenceTogetherExactlyOneCommitsAndItsManifestStays() throws Exception {
        StateDir state = StateDir.open(temp.newFolder("state").toURI().toString(), new Configuration());
        ExecutorService loads = Executors.newFixedThreadPool(2);
        try {
            for (long sequence = 1; sequence <= 200; sequence++) {
                CyclicBarrier together = new CyclicBarrier(2);
                List<Future<Boolean>> commits = new ArrayList<>();
                for (String load : List.of("a", "b")) {
                    Path written = write(state, load + "-" + sequence, load);
                    long seq = sequence;
                    commits.add(loads.submit(() -> {
                        together.await();
                        try {
                            state.commit(written, seq);
                            return true;
                        } catch (ConcurrentLoadException refused) {
                            return false;
                        }
                    }));
                }
                boolean a = commits.get(0).get();
                boolean b = commits.get(1).get();
                assertTrue("sequence " + sequence + ": exactly one commit, a=" + a + " b=" + b, a ^ b);
                assertEquals("the winner's manifest is the one in place", a ? "a" : "b", read(state, sequence));
            }
        } finally {
            loads.shutdownNow();
        }
        assertEquals(200, state.committed().size());
    }

    private static Path write(StateDir state, String name, String content) throws IOException {
        Path path = new Path(state.loadDir(name), "manifest.json");
        try (FSDataOutputStream out = state.fs().create(path, false)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return path;
    }

    private static String read(StateDir state, long sequence) throws IOException {
        try (FSDataInputStream in = state.fs().open(state.manifest(sequence))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
