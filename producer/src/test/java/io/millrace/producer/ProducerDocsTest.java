package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.producer.tools.ProducerConfigDocs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.Test;

/**
 * The Producer section of docs/clients.md cannot rot: its settings table is the generated one,
 * and its code snippet is the body of {@link #quickstart}, which this test runs.
 */
public class ProducerDocsTest {

    @Test
    public void theSettingsTableIsTheGeneratedOne() throws Exception {
        String doc = Files.readString(ProjectFiles.clientsDoc());
        assertEquals("docs/clients.md's producer settings are stale: run "
                + "io.millrace.producer.tools.ProducerConfigDocs docs/clients.md",
            ProducerConfigDocs.table(), ProducerConfigDocs.currentTable(doc));
    }

    @Test
    public void theSnippetIsCompiledAndRuns() throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.createTopic("page-views", 3);
            RecordMetadata metadata = quickstart(cluster.bootstrapServers());
            assertEquals("page-views", metadata.topic());
            assertEquals(DefaultPartitioner.partitionForKey("user-42".getBytes(), 3), metadata.partition());
            assertEquals("the same key, so after /home in the same partition", 1L, metadata.offset());
        }
    }

    @Test
    public void theDocumentShowsTheSnippetVerbatim() throws Exception {
        String doc = Files.readString(ProjectFiles.clientsDoc());
        String snippet = snippetFromThisFile();
        assertTrue("docs/clients.md must show, verbatim:\n" + snippet, doc.contains(snippet));
    }

    static RecordMetadata quickstart(String bootstrapServers) throws InterruptedException, ExecutionException {
        // snippet:start
        Map<String, Object> props = Map.of(
            "bootstrap.servers", bootstrapServers,   // or "zookeeper.connect", "localhost:2181"
            "acks", "all",
            "linger.ms", 5,
            "compression.type", "lz4");
        RecordMetadata metadata;
        try (Producer<String, String> producer =
                 new MillraceProducer<>(props, new StringSerializer(), new StringSerializer())) {
            // asynchronous: the callback runs on the producer's network thread
            producer.send(new ProducerRecord<>("page-views", "user-42", "/home"), (m, e) -> {
                if (e != null) {
                    e.printStackTrace();
                }
            });
            // or block until the broker acknowledged the record
            metadata = producer.send(new ProducerRecord<>("page-views", "user-42", "/cart")).get();
        }   // close() sends whatever is still buffered
        System.out.printf("%s-%d@%d%n", metadata.topic(), metadata.partition(), metadata.offset());
        // snippet:end
        return metadata;
    }

    /** The lines between the snippet markers, de-indented to the first line's indentation. */
    private static String snippetFromThisFile() throws Exception {
        Path source = Path.of("src/test/java/io/millrace/producer/ProducerDocsTest.java");
        List<String> lines = Files.readAllLines(source);
        int start = indexOf(lines, "// snippet:start") + 1;
        int end = indexOf(lines, "// snippet:end");
        int indent = lines.get(start).indexOf(lines.get(start).trim());
        StringBuilder snippet = new StringBuilder();
        for (String line : lines.subList(start, end)) {
            snippet.append(line.length() >= indent ? line.substring(indent) : line.trim()).append('\n');
        }
        return snippet.toString();
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equals(marker)) {
                return i;
            }
        }
        throw new AssertionError("No " + marker + " line");
    }
}
