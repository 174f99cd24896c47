package io.millrace.consumer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.consumer.tools.ConsumerConfigDocs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/**
 * docs/clients.md stays true: its snippets (kept in {@link ConsumerDocSnippets}) run, they appear in
 * the document, and its settings table is what {@link ConsumerConfig#CONFIG} renders.
 */
public class ConsumerDocSnippetsTest {

    @Test
    public void theSnippetsRunAgainstARealCluster() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             TestProducer producer = new TestProducer(cluster.bootstrapServers())) {
            cluster.createTopic("events", 1);
            List<String> sent = producer.produce("events", 1, 30, "e");
            assertEquals(sent, ConsumerDocSnippets.readRange(cluster.bootstrapServers()));
            assertEquals(sent, ConsumerDocSnippets.readRangeAsViews(cluster.bootstrapServers()));
            assertEquals(new HashSet<>(sent), new HashSet<>(ConsumerDocSnippets.groupStreams(cluster.zookeeperConnect(), 30)));
            assertEquals(new HashSet<>(sent), new HashSet<>(ConsumerDocSnippets.pollLoop(cluster.zookeeperConnect(), 30)));
        }
    }

    @Test
    public void theDocumentShowsTheSnippets() throws Exception {
        String doc = clientsDoc();
        for (String line : List.of("reader.read(tp, start, end, new StringDeserializer(), new StringDeserializer());",
            "RecordViews views = reader.readViews(tp, reader.earliestOffset(tp), reader.latestOffset(tp));",
            "consumer.createMessageStreams(Map.of(\"events\", 1)).get(\"events\").get(0);",
            "for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {")) {
            assertTrue("docs/clients.md shows: " + line, doc.contains(line));
        }
    }

    @Test
    public void theSettingsTableIsCurrent() throws Exception {
        String doc = clientsDoc();
        assertEquals("docs/clients.md's consumer settings are stale: run "
            + "io.millrace.consumer.tools.ConsumerConfigDocs docs/clients.md", ConsumerConfigDocs.update(doc), doc);
    }

    static String clientsDoc() throws Exception {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("docs"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new AssertionError("No docs/ directory above " + Path.of("").toAbsolutePath());
        }
        return Files.readString(dir.resolve("docs/clients.md"), StandardCharsets.UTF_8);
    }
}
