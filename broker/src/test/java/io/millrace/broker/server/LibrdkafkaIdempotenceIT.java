package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.PythonEnvironment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * librdkafka's idempotent producer (Confluent's Python client, as in {@link LibrdkafkaIT}) against a
 * broker reached through a proxy: idempotent_producer.py checks every record is acknowledged once at
 * the next offset and read back in order, once as it is and once with its first Produce request
 * damaged on the way. librdkafka sends that batch again once the partition's other requests are
 * answered. In this test its debug log showed it sending a new producer's second batch to a
 * partition only after the first was answered, so it does not meet the case that
 * {@code KafkaIdempotentProducerProxyTest} checks with Kafka's producer; what this test shows is that
 * the broker's stricter rule for producers a partition does not know costs librdkafka nothing.
 * transactional_producer.py commits a transaction, aborts one and commits another with librdkafka's
 * transactional producer; a read-committed consumer then reads exactly the committed records.
 *
 * <p>Without python3, or with PyPI out of reach, the test is skipped with a reason.
 */
public class LibrdkafkaIdempotenceIT {

    private static final Logger LOG = LoggerFactory.getLogger(LibrdkafkaIdempotenceIT.class);
    private static final int COUNT = 2_000;

    private static final ProxiedBroker BROKER = new ProxiedBroker();

    @ClassRule
    public static final TestRule RULES = BROKER.rules();

    private static PythonEnvironment python;

    @BeforeClass
    public static void installConfluentKafka() throws Exception {
        python = PythonEnvironment.install(Path.of("target", "librdkafka-venv"), LibrdkafkaIT.CONFLUENT_KAFKA);
    }

    @Test(timeout = 240_000)
    public void everyRecordIsStoredOnceInOrder() throws Exception {
        runScript("librdkafka-idempotent");
    }

    @Test(timeout = 240_000)
    public void aFirstBatchRefusedWithOthersInFlightIsStillStoredFirst() throws Exception {
        int before = BROKER.proxy().producesCorrupted();
        String topic = "librdkafka-idempotent-first-refused";
        BROKER.proxy().corruptNextProduceBatch(topic);
        runScript(topic);
        assertEquals("one Produce request was damaged", before + 1, BROKER.proxy().producesCorrupted());
    }

    @Test(timeout = 180_000)
    public void committedTransactionsAreReadOnceAndAnAbortedOneNever() throws Exception {
        String topic = "librdkafka-transactions";
        BROKER.cluster().createTopic(topic, 2, Map.of());
        Path script = Path.of("target", "test-classes", "librdkafka", "transactional_producer.py");
        PythonEnvironment.Result result = python.run(script, List.of(BROKER.proxy().connectString(), topic), 120);
        LOG.info("transactional_producer.py: {}", result.output());
        assertEquals("transactional_producer.py failed: " + result.output(), 0, result.exit());
        assertTrue(result.output(), result.output().contains("\"committed\": 130"));
    }

    private void runScript(String topic) throws Exception {
        BROKER.cluster().createTopic(topic, 1, Map.of());
        Path script = Path.of("target", "test-classes", "librdkafka", "idempotent_producer.py");
        PythonEnvironment.Result result = python.run(script,
            List.of(BROKER.proxy().connectString(), topic, String.valueOf(COUNT)), 200);
        LOG.info("idempotent_producer.py {}: {}", topic, result.output());
        assertEquals("idempotent_producer.py failed: " + result.output(), 0, result.exit());
        assertTrue(result.output(), result.output().contains("\"records\": " + COUNT));
    }
}
