package io.millrace.broker.tools;

import static org.junit.Assert.assertEquals;

import java.util.Map;
import org.junit.Test;

/** Clusters of several brokers side by side in one JVM, as the demo of the whole pipeline runs three. */
public class LocalClusterTest {

    @Test
    public void brokerIdInTheOverridesIsTheFirstBrokersSoThatTwoClustersOfTwoBrokersShareAJvm() throws Exception {
        try (LocalCluster first = LocalCluster.start(2, Map.of("broker.id", 10));
             LocalCluster second = LocalCluster.start(2, Map.of("broker.id", 20))) {
            assertEquals(10, first.broker(0).brokerId());
            assertEquals(11, first.broker(1).brokerId());
            assertEquals(21, second.broker(1).brokerId());
            second.createTopic("events", 4);
            first.createTopic("events", 4);
        }
    }
}
