package io.millrace.audit.report;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the audit topic from its earliest to its latest offset, every partition, and decodes each record
 * with the registry: the input of the {@link Reconciliation}. Window entries outside {@code [since, until)}
 * and topics not matching the pattern are left out; lost ranges are always kept. So are the counts of the
 * audit topic itself: a mirror that copies the live clusters' audit topics into the offline one (how the
 * producers' counts reach the offline report) counts the audit records it copied, which are not events
 * and have no producer tier to be held against. A lost range of the audit topic stays: counts were lost.
 */
public final class AuditReader {

    private AuditReader() {
    }

    public static List<AuditEntry> read(String bootstrap, String registryUrl, String auditTopic, Pattern topics,
                                        long since, long until) {
        AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(new SchemaRegistryClient(
            Map.of("schema.registry.url", registryUrl)));
        Predicate<AuditEntry> wanted = e -> topics.matcher(e.topic()).matches()
            && (e.lost() != null || !e.topic().equals(auditTopic))
            && (e.window() == null || e.window().start() >= since && e.window().start() < until);
        List<AuditEntry> entries = new ArrayList<>();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", bootstrap)))) {
            int partitions = reader.partitionCount(auditTopic);
            for (int p = 0; p < partitions; p++) {
                TopicPartition tp = new TopicPartition(auditTopic, p);
                reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp)).forEachRemaining(record -> {
                    AuditEntry entry = AuditEntry.of(decoder.deserialize(auditTopic, record.value()));
                    if (wanted.test(entry)) {
                        entries.add(entry);
                    }
                });
            }
        }
        return entries;
    }
}
