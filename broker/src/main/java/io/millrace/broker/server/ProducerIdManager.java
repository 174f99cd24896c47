package io.millrace.broker.server;

import io.millrace.common.utils.Time;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out producer ids that no other broker hands out: the broker id in the high bits (bits 44
 * to 62) and a counter in the low 44 bits that starts at the wall clock's milliseconds times 4 when
 * the broker starts. So a restarted broker does not repeat its earlier ids unless it handed out
 * more than four per millisecond on average during its previous life. Ids are never
 * deduplicated against (see docs/protocol.md), so a repeat costs nothing today; a ZooKeeper block
 * allocation, as Kafka has, is the durable answer.
 */
final class ProducerIdManager {

    private static final int COUNTER_BITS = 44;
    private static final long COUNTER_MASK = (1L << COUNTER_BITS) - 1;

    private final long brokerBits;
    private final AtomicLong counter;

    ProducerIdManager(int brokerId, Time time) {
        if (brokerId >= 1 << (63 - COUNTER_BITS)) {
            throw new IllegalArgumentException("Broker id " + brokerId + " is too large for producer id allocation");
        }
        this.brokerBits = (long) brokerId << COUNTER_BITS;
        this.counter = new AtomicLong((time.milliseconds() * 4) & COUNTER_MASK);
    }

    long nextId() {
        return brokerBits | (counter.getAndIncrement() & COUNTER_MASK);
    }
}
