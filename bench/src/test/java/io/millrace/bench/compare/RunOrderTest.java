package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class RunOrderTest {

    @Test
    public void eachBrokerGoesFirstInEveryOtherRound() {
        assertEquals(List.of(BrokerComparison.KAFKA, BrokerComparison.MILLRACE), BrokerComparison.order(0));
        assertEquals(List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA), BrokerComparison.order(1));
        assertEquals(List.of(BrokerComparison.KAFKA, BrokerComparison.MILLRACE), BrokerComparison.order(2));
        assertEquals(List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA), BrokerComparison.order(3));
    }

    @Test
    public void eachClientGoesFirstInEveryOtherRound() {
        assertEquals(List.of(BenchClient.KAFKA, BenchClient.MILLRACE), BrokerComparison.clientOrder(2));
        assertEquals(List.of(BenchClient.MILLRACE, BenchClient.KAFKA), BrokerComparison.clientOrder(3));
    }
}
