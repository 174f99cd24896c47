package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogManager;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Where a follower's log stops agreeing with its leader's, from leader epochs. */
public class EpochTruncationTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private LogManager manager;
    private Log follower;

    /** The follower led epoch 0 for offsets 0-4, then epoch 2 for 5-9, which no other replica has. */
    @Before
    public void setUp() throws IOException {
        manager = new LogManager(new LogConfig(Map.of()), List.of(temp.newFolder("logs").toPath()), new MockTime());
        manager.startup();
        follower = manager.getOrCreateLog("t", 0);
        follower.appendAsLeader(batch(5), 0);
        follower.appendAsLeader(batch(5), 2);
        follower.setHighWatermarkFollowsLogEnd(false);
        follower.updateHighWatermark(3);
    }

    @After
    public void tearDown() {
        manager.shutdown();
    }

    private static ByteBuffer batch(int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256);
        for (int i = 0; i < records; i++) {
            builder.append(1L, null, new byte[] {(byte) i});
        }
        return builder.build();
    }

    @Test
    public void aLeaderWithOurEpochAgreesUpToItsEndOfIt() {
        assertEquals(8, EpochTruncation.divergence(follower, 2, 2, 8));
        assertEquals("never past our own end", 10, EpochTruncation.divergence(follower, 2, 2, 14));
    }

    @Test
    public void aLeaderThatNeverHadOurEpochAgreesUpToWhereItsOwnEnds() {
        // The leader had epoch 0 up to offset 7 (it then led epoch 1): ours ends at 5, so 5-9 go.
        assertEquals(5, EpochTruncation.divergence(follower, 2, 0, 7));
        assertEquals(4, EpochTruncation.divergence(follower, 2, 0, 4));
    }

    @Test
    public void aLeaderWithoutEpochsLeavesTheHighWatermark() {
        assertEquals(3, EpochTruncation.divergence(follower, 2, -1, -1));
    }
}
