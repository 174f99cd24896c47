package io.millrace.producer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.serialization.StringSerializer;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.Test;

/** A record sent to a partition just added to its topic waits for metadata that knows it, as in Kafka. */
public class AddedPartitionsProducerTest {

    @Test
    public void aRecordForAnAddedPartitionIsSentOnceMetadataKnowsItAndABadPartitionStillFails() throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            cluster.createTopic("growing", 2);
            Map<String, Object> props = new HashMap<>();
            props.put("bootstrap.servers", cluster.bootstrapServers());
            props.put("max.block.ms", 2_000L);
            try (MillraceProducer<String, String> producer = new MillraceProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
                assertEquals(1, producer.send(new ProducerRecord<>("growing", 1, "k", "before")).get(10, TimeUnit.SECONDS)
                    .partition());
                Properties admin = new Properties();
                admin.put("bootstrap.servers", cluster.bootstrapServers());
                try (Admin client = Admin.create(admin)) {
                    client.createPartitions(Map.of("growing", NewPartitions.increaseTo(4))).all().get(30, TimeUnit.SECONDS);
                }
                // metadata.max.age.ms is 5 minutes: only the wait for a refresh finds partition 3 now.
                assertEquals(3, producer.send(new ProducerRecord<>("growing", 3, "k", "after")).get(30, TimeUnit.SECONDS)
                    .partition());
                // the partition count kept for the topic follows the new metadata: no wait for it again
                Object waitedNs = producer.metrics().value("metadata-wait-time-ns-total");
                assertEquals(3, producer.send(new ProducerRecord<>("growing", 3, "k", "again")).get(30, TimeUnit.SECONDS)
                    .partition());
                assertEquals(waitedNs, producer.metrics().value("metadata-wait-time-ns-total"));

                long start = System.nanoTime();
                ExecutionException missing = assertThrows(ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>("growing", 9, "k", "nowhere")).get(10, TimeUnit.SECONDS));
                assertTrue(missing.getCause().toString(), missing.getCause() instanceof InvalidPartitionsException);
                assertTrue("bounded by max.block.ms", System.nanoTime() - start < TimeUnit.SECONDS.toNanos(8));
            }
        }
    }
}
