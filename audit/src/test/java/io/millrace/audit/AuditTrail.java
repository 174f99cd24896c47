package io.millrace.audit;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;

/** The window counts one tier published to an audit topic, decoded with the registry alone and summed. */
public final class AuditTrail {

    public final List<GenericRecord> records = new ArrayList<>();
    public final Map<Long, Long> countByWindow = new TreeMap<>();
    public final Map<Long, Long> bytesByWindow = new TreeMap<>();
    public long count;
    public long bytes;
    public long noTime;
    public long malformed;

    /** Every window record of {@code tier} in {@code auditTopic}, from its start to its end now. */
    public static AuditTrail read(String bootstrap, String registryUrl, String auditTopic, String tier) {
        AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(new SchemaRegistryClient(
            Map.of("schema.registry.url", registryUrl)));
        AuditTrail trail = new AuditTrail();
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", bootstrap)))) {
            for (int p = 0; p < reader.partitionCount(auditTopic); p++) {
                TopicPartition tp = new TopicPartition(auditTopic, p);
                reader.read(tp, 0, reader.latestOffset(tp)).forEachRemaining(r -> {
                    GenericRecord record = decoder.deserialize(auditTopic, r.value());
                    if (record.get("tier").toString().equals(tier)) {
                        trail.add(record);
                    }
                });
            }
        }
        return trail;
    }

    private void add(GenericRecord record) {
        records.add(record);
        GenericRecord body = (GenericRecord) record.get("body");
        long window = (Long) body.get("windowStart");
        countByWindow.merge(window, (Long) body.get("count"), Long::sum);
        bytesByWindow.merge(window, (Long) body.get("bytes"), Long::sum);
        count += (Long) body.get("count");
        bytes += (Long) body.get("bytes");
        noTime += (Long) body.get("noTimeCount");
        malformed += (Long) body.get("malformedCount");
    }
}
