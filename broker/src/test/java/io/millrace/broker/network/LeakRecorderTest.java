package io.millrace.broker.network;

import io.millrace.testkit.Conditions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.Test;

/** The leak checks of the other tests prove something only if a real leak makes them fail. */
public class LeakRecorderTest {

    @Test
    public void theLeakCheckCatchesADeliberateLeak() {
        LeakRecorder.install();
        leakOneBuffer();
        Conditions.waitUntil(() -> LeakRecorder.collectLeaks().stream().anyMatch(l -> l.contains("deliberate-leak")),
            "the leak detector reports the deliberately leaked buffer");
        new LeakRecorder().before(); // forget it, so that later tests start clean
    }

    private static void leakOneBuffer() {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(8);
        buf.touch("deliberate-leak");
        buf.writeLong(42);
    }
}
