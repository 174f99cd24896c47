package io.millrace.hadoop.state;

import io.millrace.common.TopicPartition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The load's state directory, on any Hadoop file system:
 *
 * <pre>
 * &lt;state.dir&gt;/
 *   manifests/0000000007.json   committed loads, one per sequence number; the newest holds the offsets
 *   summaries/0000000007.json   written when load 7 is complete (files moved): its presence means "done"
 *   errors/0000000007/...       the undecodable messages of load 7 (Avro, with their coordinates)
 *   audits/0000000007.json      written once the audit topic acknowledged load 7's audit records
 *   loads/&lt;run id&gt;/             a running load: plan.json, the job's output, manifest.json before it is committed
 *   failed/&lt;run id&gt;/            a load refused for too many undecodable messages, kept to look at
 * </pre>
 *
 * Sequence numbers are zero-padded to 10 digits so that names sort by number. Only files with their
 * final names count: a manifest is written under a temporary name and renamed, so a manifest that
 * exists is whole. Not thread-safe; one load at a time per state directory (a second one is refused
 * at its commit, see {@link #commit}).
 */
public final class StateDir {

    private static final Pattern SEQUENCE_FILE = Pattern.compile("(\\d{10})\\.json");

    private final FileSystem fs;
    private final Path root;

    public StateDir(FileSystem fs, Path root) {
        this.fs = fs;
        this.root = fs.makeQualified(root);
    }

    /** The state directory at {@code uri} (hdfs://, file://, or a path of the default file system). */
    public static StateDir open(String uri, Configuration conf) throws IOException {
        Path root = new Path(uri);
        return new StateDir(root.getFileSystem(conf), root);
    }

    public FileSystem fs() {
        return fs;
    }

    public Path root() {
        return root;
    }

    public Path manifests() {
        return new Path(root, "manifests");
    }

    public Path manifest(long sequence) {
        return new Path(manifests(), name(sequence) + ".json");
    }

    public Path summaries() {
        return new Path(root, "summaries");
    }

    public Path summary(long sequence) {
        return new Path(summaries(), name(sequence) + ".json");
    }

    public Path errors(long sequence) {
        return new Path(new Path(root, "errors"), name(sequence));
    }

    public Path audits() {
        return new Path(root, "audits");
    }

    /** Where the mark that load {@code sequence}'s audit counts were published goes. */
    public Path audit(long sequence) {
        return new Path(audits(), name(sequence) + ".json");
    }

    /** Whether the audit topic acknowledged load {@code sequence}'s audit counts. */
    public boolean audited(long sequence) throws IOException {
        return fs.exists(audit(sequence));
    }

    /** Marks the audit counts of {@code mark}'s load as published; written whole or not at all. */
    public void markAudited(AuditMark mark) throws IOException {
        fs.mkdirs(audits());
        JsonFiles.writeAtomically(fs, audit(mark.sequence()), mark);
    }

    /** Whether load {@code sequence} committed. */
    public boolean isCommitted(long sequence) throws IOException {
        return fs.exists(manifest(sequence));
    }

    public Path loads() {
        return new Path(root, "loads");
    }

    /** The jars a load ships to its tasks on YARN, uploaded once per content ({@code TaskJars}). */
    public Path jars() {
        return new Path(root, "jars");
    }

    public Path loadDir(String runId) {
        return new Path(loads(), runId);
    }

    public Path failed(String runId) {
        return new Path(new Path(root, "failed"), runId);
    }

    /** {@code sequence} zero-padded to 10 digits, as file names carry it. */
    public static String name(long sequence) {
        return String.format("%010d", sequence);
    }

    /** The sequence numbers of the committed manifests, ascending. */
    public List<Long> committed() throws IOException {
        return sequencesIn(manifests());
    }

    /** The committed loads whose files have not all been moved yet (no summary): recovery completes them. */
    public List<Long> pending() throws IOException {
        TreeSet<Long> pending = new TreeSet<>(committed());
        pending.removeAll(sequencesIn(summaries()));
        return new ArrayList<>(pending);
    }

    public Optional<Manifest> newest() throws IOException {
        List<Long> committed = committed();
        return committed.isEmpty() ? Optional.empty() : Optional.of(read(committed.get(committed.size() - 1)));
    }

    public Manifest read(long sequence) throws IOException {
        return JsonFiles.read(fs, manifest(sequence), Manifest.class);
    }

    /** The offsets the newest committed load reached; empty before the first load. */
    public Map<TopicPartition, Long> committedOffsets() throws IOException {
        return newest().map(Manifest::offsetMap).orElse(Map.of());
    }

    /**
     * The commit point: gives {@code written} (the manifest, already written in full) the name
     * {@code manifests/<sequence>.json}, only if no load has that name yet, atomically on HDFS and on
     * {@code file://} alike ({@link ExclusiveCreate}). So of two loads that planned from the same manifest
     * only one commits; the other gets a {@link ConcurrentLoadException} and its data stays invisible.
     */
    public void commit(Path written, long sequence) throws IOException {
        fs.mkdirs(manifests());
        if (!ExclusiveCreate.moveIfAbsent(fs, written, manifest(sequence))) {
            throw new ConcurrentLoadException("Another load committed sequence " + sequence + " first (" + manifest(sequence)
                + " exists): loads of one state directory must not overlap. This load's data stays invisible.");
        }
    }

    /** The load directories present (running, crashed or not yet cleaned up). */
    public List<Path> loadDirs() throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (FileStatus status : list(loads())) {
            if (status.isDirectory()) {
                dirs.add(status.getPath());
            }
        }
        return dirs;
    }

    private List<Long> sequencesIn(Path dir) throws IOException {
        TreeSet<Long> sequences = new TreeSet<>();
        for (FileStatus status : list(dir)) {
            Matcher m = SEQUENCE_FILE.matcher(status.getPath().getName());
            if (m.matches()) {
                sequences.add(Long.parseLong(m.group(1)));
            }
        }
        return new ArrayList<>(sequences);
    }

    private FileStatus[] list(Path dir) throws IOException {
        try {
            return fs.listStatus(dir);
        } catch (FileNotFoundException e) {
            return new FileStatus[0];
        }
    }
}
