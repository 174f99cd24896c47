package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.Test;

public class RunOrderTest {

    @Test
    public void eachBrokerGoesFirstInEveryOtherRound() {
        assertEquals(List.of(BrokerComparison.KAFKA, BrokerComparison.MILLRACE), RunOrder.brokers(0));
        assertEquals(List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA), RunOrder.brokers(1));
        assertEquals(List.of(BrokerComparison.KAFKA, BrokerComparison.MILLRACE), RunOrder.brokers(2));
        assertEquals(List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA), RunOrder.brokers(3));
        assertEquals("warm-up rounds alternate too", List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA),
            RunOrder.brokers(-1));
        assertEquals(List.of(Cell.MILLRACE_ON_MILLRACE, Cell.AUDITED_MILLRACE_ON_MILLRACE),
            RunOrder.producers(Cell.MILLRACE_ON_MILLRACE, -1));
    }

    @Test
    public void theAuditPairRunsScenarioOneAloneWithTheWarmUpRoundsAsked() {
        BrokerComparison bench = ComparisonOptions.parse(new String[] {"--audit-pair", "--warmup-rounds", "3"});
        assertEquals(Set.of(1), bench.scenarios);
        assertEquals(true, bench.auditPairOnly);
        assertEquals(3, bench.fullWarmupRounds);
        assertEquals(false, ComparisonOptions.parse(new String[] {"--quick"}).auditPairOnly);
    }

    @Test
    public void eachClientGoesFirstInEveryOtherRound() {
        assertEquals(List.of(BenchClient.KAFKA, BenchClient.MILLRACE), RunOrder.clients(2));
        assertEquals(List.of(BenchClient.MILLRACE, BenchClient.KAFKA), RunOrder.clients(3));
    }

    @Test
    public void theAuditedProducerRunsNextToThePlainOneFirstInEveryOtherRound() {
        assertEquals(List.of(Cell.MILLRACE_ON_MILLRACE, Cell.AUDITED_MILLRACE_ON_MILLRACE),
            RunOrder.producers(Cell.MILLRACE_ON_MILLRACE, 1));
        assertEquals(List.of(Cell.AUDITED_MILLRACE_ON_MILLRACE, Cell.MILLRACE_ON_MILLRACE),
            RunOrder.producers(Cell.MILLRACE_ON_MILLRACE, 2));
        for (Cell other : List.of(Cell.KAFKA_ON_MILLRACE, Cell.MILLRACE_ON_KAFKA, Cell.KAFKA_ON_KAFKA)) {
            assertEquals(List.of(other), RunOrder.producers(other, 1));
            assertEquals(List.of(other), RunOrder.producers(other, 2));
        }
    }

    @Test
    public void scenariosAreChosenByNumber() {
        assertEquals(Set.of(1, 5), ComparisonOptions.scenarios("5, 1"));
        assertEquals(BrokerComparison.ALL_SCENARIOS, ComparisonOptions.parse(new String[] {"--quick"}).scenarios);
        assertEquals(Set.of(1), ComparisonOptions.parse(new String[] {"--scenarios", "1", "--runs", "7"}).scenarios);
        assertEquals(7, ComparisonOptions.parse(new String[] {"--scenarios", "1", "--runs", "7"}).runs);
    }

    @Test
    public void kafkasSocketBuffersAreKafkasDefaultsUnlessAskedFor() {
        assertEquals(null, ComparisonOptions.parse(new String[] {"--quick"}).kafkaSocketBuffers);
        assertEquals(Integer.valueOf(-1),
            ComparisonOptions.parse(new String[] {"--kafka-socket-buffers", "-1"}).kafkaSocketBuffers);
        java.util.Properties untouched = new java.util.Properties();
        Scenarios.putSocketBuffers(untouched);
        assertEquals(true, untouched.isEmpty());
        Scenarios.setKafkaClientSocketBuffers(-1);
        try {
            java.util.Properties props = new java.util.Properties();
            Scenarios.putSocketBuffers(props);
            assertEquals("-1", props.get("send.buffer.bytes"));
            assertEquals("-1", props.get("receive.buffer.bytes"));
        } finally {
            Scenarios.setKafkaClientSocketBuffers(null);
        }
    }

    @Test
    public void theProfilesAreAskedForOneByOne() {
        BrokerComparison plain = ComparisonOptions.parse(new String[] {"--quick"});
        assertEquals(false, plain.flightRecordings || plain.systemProfile);
        BrokerComparison perf = ComparisonOptions.parse(new String[] {"--perf"});
        assertEquals(true, perf.systemProfile);
        assertEquals(false, perf.flightRecordings);
        assertEquals(true, ComparisonOptions.parse(new String[] {"--jfr", "--perf"}).flightRecordings);
    }
}
