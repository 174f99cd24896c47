package io.millrace.examples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.examples.events.PageViewEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace avro-demo}: every page view comes back as the generated class, its header filled
 * in, and the loader files every one of them, once, as Avro by event hour.
 */
public class AvroEventsDemoTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test(timeout = 120_000)
    public void everyEventComesBackWithItsHeaderFilledInAndIsLoadedOnce() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Path loadDir = tmp.newFolder("load").toPath();
        AvroEventsDemo.Outcome outcome;
        try (LocalCluster cluster = LocalCluster.start()) {
            outcome = AvroEventsDemo.run(cluster, loadDir, new PrintStream(printed, true, StandardCharsets.UTF_8));
        }
        List<PageViewEvent> read = outcome.read();
        assertEquals(AvroEventsDemo.EVENTS, read.size());
        for (int i = 0; i < read.size(); i++) {
            PageViewEvent view = read.get(i);
            assertEquals("/page/" + i, view.getUrl());
            assertEquals("frontend", view.getHeader().getService());
            assertNotNull(view.getHeader().getTime());
            assertNotNull(view.getHeader().getServer());
            assertEquals(36, view.getHeader().getId().length());
        }
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("read   {\"header\""));

        assertEquals(AvroEventsDemo.EVENTS, outcome.loaded().records());
        assertEquals(0, outcome.loaded().errors());
        List<String> loadedUrls = new ArrayList<>();
        try (Stream<Path> files = Files.walk(loadDir.resolve("data").resolve(AvroEventsDemo.TOPIC))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".avro")).toList()) {
                try (DataFileReader<GenericRecord> records = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
                    records.forEach(record -> loadedUrls.add(record.get("url").toString()));
                }
            }
        }
        loadedUrls.sort(null);
        List<String> sentUrls = new ArrayList<>();
        read.forEach(view -> sentUrls.add(view.getUrl()));
        sentUrls.sort(null);
        assertEquals(sentUrls, loadedUrls);
    }
}
