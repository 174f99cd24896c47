package io.millrace.hadoop.state;

import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Small JSON files on a Hadoop file system: the plan, the task reports, manifests and summaries.
 * Only record components are written (no getters), so derived values never end up in a file.
 */
public final class JsonFiles {

    private static final ObjectMapper JSON = new ObjectMapper()
        .setVisibility(PropertyAccessor.ALL, Visibility.NONE)
        .setVisibility(PropertyAccessor.FIELD, Visibility.ANY)
        .setVisibility(PropertyAccessor.CREATOR, Visibility.ANY)
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private JsonFiles() {
    }

    /** Writes {@code value} to {@code path}, replacing what is there. Not atomic: see {@link #writeAtomically}. */
    public static void write(FileSystem fs, Path path, Object value) throws IOException {
        try (OutputStream out = fs.create(path, true)) {
            JSON.writeValue(out, value);
        }
    }

    /**
     * Writes {@code value} to a temporary file next to {@code path} and renames it into place, so a
     * reader sees either no file or the whole file, never a part of it. Replaces an existing file.
     */
    public static void writeAtomically(FileSystem fs, Path path, Object value) throws IOException {
        Path temp = new Path(path.getParent(), "." + path.getName() + ".tmp");
        write(fs, temp, value);
        if (fs.exists(path)) {
            fs.delete(path, false);
        }
        if (!fs.rename(temp, path)) {
            throw new IOException("Could not rename " + temp + " to " + path);
        }
    }

    public static <T> T read(FileSystem fs, Path path, Class<T> type) throws IOException {
        try (InputStream in = fs.open(path)) {
            return JSON.readValue(in, type);
        } catch (IOException e) {
            throw new IOException("Could not read " + path + ": " + e.getMessage(), e);
        }
    }

    public static String toJson(Object value) throws IOException {
        return JSON.writeValueAsString(value);
    }

    /** {@code value} as a JSON object with one more field, {@code name}: {@code extra}. */
    public static String toJson(Object value, String name, Object extra) throws IOException {
        ObjectNode object = JSON.valueToTree(value);
        object.set(name, JSON.valueToTree(extra));
        return JSON.writeValueAsString(object);
    }
}
