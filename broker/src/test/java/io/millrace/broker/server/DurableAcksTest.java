package io.millrace.broker.server;

import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.Log;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * With flush.messages=1 an acknowledged record is on disk when its acknowledgement arrives: the
 * produce answer waits for the fsync that covers it (Kafka's producer, acks=1 and all).
 */
public class DurableAcksTest {

    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 1, Map.of());

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    @Test
    public void everyAcknowledgedOffsetIsBelowTheRecoveryPointWhenTheAnswerArrives() throws Exception {
        CLUSTER.createTopic("durable", 1, Map.of("flush.messages", "1"));
        for (String acks : new String[] {"1", "all"}) {
            try (KafkaProducer<byte[], byte[]> producer = producer(acks)) {
                for (int i = 0; i < 100; i++) {
                    RecordMetadata acked = producer.send(new ProducerRecord<>("durable", 0, null, new byte[100])).get();
                    long recoveryPoint = log("durable").recoveryPoint();
                    assertTrue("acks=" + acks + ": offset " + acked.offset() + " acknowledged while the recovery point was "
                        + recoveryPoint, acked.offset() < recoveryPoint);
                }
            }
        }
    }

    private static Log log(String topic) {
        return CLUSTER.broker(0).logManager().getLog(topic, 0).orElseThrow();
    }

    private static KafkaProducer<byte[], byte[]> producer(String acks) {
        Properties props = CLUSTER.clientProps();
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", acks);
        props.put("linger.ms", "0");
        if (!acks.equals("all")) {
            props.put("enable.idempotence", "false");
        }
        return new KafkaProducer<>(props);
    }
}
