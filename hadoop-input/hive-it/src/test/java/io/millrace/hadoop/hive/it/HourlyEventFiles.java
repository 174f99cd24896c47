package io.millrace.hadoop.hive.it;

import io.millrace.hadoop.HourLayout;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Page-view events in Avro container files (snappy), laid out as the loader lays out a topic:
 * {@code <hourly>/year=yyyy/month=MM/day=dd/hour=HH/<topic>+<partition>+<first offset>+<last offset>.avro},
 * each hour's events spread over two partitions, each event's header time inside its hour. It stands
 * in for a load until the loader can run here; everything the test checks is counted from what this
 * class wrote.
 */
final class HourlyEventFiles {

    private static final int PARTITIONS = 2;
    private static final String[] PAGES = {"profile", "job-posting", "search", "feed"};

    private HourlyEventFiles() {
    }

    /** The examples module's {@code PageViewEvent}, a tracked event with the event header, read from its .avsc. */
    static Schema pageViewSchema() throws IOException {
        Schema.Parser parser = new Schema.Parser();
        parser.parse(EventHeaders.SCHEMA.toString());
        Path avsc = Path.of(System.getProperty("millrace.event.schemas", "../../examples/src/main/avro"), "PageViewEvent.avsc");
        return parser.parse(Files.readString(avsc, StandardCharsets.UTF_8));
    }

    /** Writes {@code counts.get(hour)} events into each hour's directory under {@code hourly}. */
    static void write(Path hourly, String topic, Schema schema, Map<Instant, Integer> counts) throws IOException {
        long[] nextOffset = new long[PARTITIONS];
        for (Map.Entry<Instant, Integer> hour : counts.entrySet()) {
            Path dir = Files.createDirectories(hourly.resolve(HourLayout.HIVE.hourDirectory(hour.getKey())));
            for (int partition = 0; partition < PARTITIONS; partition++) {
                int events = hour.getValue() / PARTITIONS + (partition < hour.getValue() % PARTITIONS ? 1 : 0);
                long first = nextOffset[partition];
                nextOffset[partition] += events;
                File file = dir.resolve(topic + "+" + partition + "+" + first + "+" + (nextOffset[partition] - 1) + ".avro").toFile();
                writeFile(file, schema, hour.getKey(), partition, first, events);
            }
        }
    }

    private static void writeFile(File file, Schema schema, Instant hour, int partition, long firstOffset, int events)
        throws IOException {
        try (DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
            writer.setCodec(CodecFactory.snappyCodec());
            writer.create(schema, file);
            for (int i = 0; i < events; i++) {
                writer.append(event(schema, hour, partition, firstOffset + i, i));
            }
        }
    }

    private static GenericRecord event(Schema schema, Instant hour, int partition, long offset, int i) {
        GenericRecord header = new GenericData.Record(schema.getField("header").schema());
        header.put("time", hour.toEpochMilli() + (offset * 7_919L) % 3_600_000L);
        header.put("server", "web-" + partition);
        header.put("service", "frontend");
        header.put("id", UUID.nameUUIDFromBytes((hour + "/" + partition + "/" + offset).getBytes(StandardCharsets.UTF_8)).toString());
        GenericRecord view = new GenericData.Record(schema);
        view.put("header", header);
        view.put("memberId", i % 5 == 0 ? null : 1_000L + i);
        view.put("pageKey", PAGES[i % PAGES.length]);
        view.put("url", "/in/member-" + i);
        view.put("referrer", i % 3 == 0 ? "https://www.example.com/?q=it's" : null);
        return view;
    }
}
