package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batches;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

import io.millrace.common.record.RecordBatch;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class HighWatermarkReadsTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private LogManager manager;
    private Log log;

    @Before
    public void setUp() throws IOException {
        manager = new LogManager(LogTestUtils.config(), List.of(temp.newFolder("logs").toPath()), new MockTime());
        manager.startup();
        log = manager.getOrCreateLog("events", 0);
        log.append(batch(1L, "a", "b"));      // offsets 0-1
        log.append(batch(1L, "c"));           // 2
        log.append(batch(1L, "d", "e", "f")); // 3-5
    }

    @After
    public void tearDown() {
        manager.shutdown();
    }

    private List<Long> baseOffsets(FileSlice slice) throws IOException {
        return batches(slice).stream().map(RecordBatch::baseOffset).toList();
    }

    @Test
    public void keepsOnlyTheBatchesBelowTheHighWatermark() throws IOException {
        FileSlice all = log.read(0, Integer.MAX_VALUE, true);
        assertEquals(List.of(0L, 2L), baseOffsets(HighWatermarkReads.below(all, 3)));
        assertEquals(List.of(0L), baseOffsets(HighWatermarkReads.below(all, 2)));
        assertEquals(0, HighWatermarkReads.below(all, 0).sizeInBytes());
    }

    @Test
    public void aSliceEndingBelowTheHighWatermarkIsKeptWhole() {
        FileSlice all = log.read(0, Integer.MAX_VALUE, true);
        assertSame(all, HighWatermarkReads.below(all, 6));
    }

    @Test
    public void aCutOffLastBatchBelowTheHighWatermarkStaysAsItWas() throws IOException {
        FileSlice all = log.read(0, Integer.MAX_VALUE, true);
        FileSlice cut = log.read(0, all.sizeInBytes() - 10, false);
        assertEquals(cut.sizeInBytes(), HighWatermarkReads.below(cut, 6).sizeInBytes());
        assertEquals(List.of(0L, 2L), baseOffsets(HighWatermarkReads.below(cut, 3)));
    }
}
