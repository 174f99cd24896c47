package io.millrace.audit.kafka;

import static org.junit.Assert.assertEquals;

import io.millrace.audit.AuditConfig;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.server.SchemaRegistryConfig;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.Test;

/** Apache Kafka's own producer, audited by adding the interceptor: the audit topic counts what it sent. */
public class AuditProducerInterceptorTest {

    @Test
    public void kafkasProducerWithTheInterceptorPublishesTheCountOfWhatTheBrokerAcknowledged() throws Exception {
        try (LocalCluster cluster = LocalCluster.start(1, Map.of());
             SchemaRegistryServer registry = new SchemaRegistryServer(new SchemaRegistryConfig(Map.of(
                 SchemaRegistryConfig.LISTENERS_CONFIG, "http://127.0.0.1:0",
                 SchemaRegistryConfig.ZOOKEEPER_CONNECT_CONFIG, cluster.zookeeperConnect()))).start()) {
            cluster.createTopic("clicks", 2);
            Properties props = new Properties();
            props.put("bootstrap.servers", cluster.bootstrapServers());
            props.put("key.serializer", ByteArraySerializer.class.getName());
            props.put("value.serializer", ByteArraySerializer.class.getName());
            props.put("client.id", "search-frontend");
            props.put("interceptor.classes", AuditProducerInterceptor.class.getName());
            props.put("schema.registry.url", registry.urls().get(0));
            props.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
            props.put(AuditConfig.AUDIT_WINDOW_MS_CONFIG, "3600000");
            long bytes = 0;
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
                for (int i = 0; i < 30; i++) {
                    byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
                    byte[] value = ("click-" + i).getBytes(StandardCharsets.UTF_8);
                    producer.send(new ProducerRecord<>("clicks", i % 2, key, value)).get();
                    bytes += key.length + value.length;
                }
            }   // closing the producer closes the interceptor, which publishes every window

            AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(new SchemaRegistryClient(
                Map.of("schema.registry.url", registry.urls().get(0))));
            long counted = 0;
            long countedBytes = 0;
            try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                    cluster.bootstrapServers())))) {
                for (int p = 0; p < reader.partitionCount("_audit"); p++) {
                    TopicPartition tp = new TopicPartition("_audit", p);
                    for (var it = reader.read(tp, 0, reader.latestOffset(tp)); it.hasNext(); ) {
                        GenericRecord record = decoder.deserialize("_audit", it.next().value());
                        assertEquals("producer", record.get("tier").toString());
                        assertEquals("dc1", record.get("cluster").toString());
                        assertEquals("search-frontend", record.get("application").toString());
                        GenericRecord body = (GenericRecord) record.get("body");
                        counted += (Long) body.get("count");
                        countedBytes += (Long) body.get("bytes");
                    }
                }
            }
            assertEquals(30, counted);
            assertEquals(bytes, countedBytes);
        }
    }
}
