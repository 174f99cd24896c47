package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.FileRecords.BatchLocation;
import io.millrace.broker.log.FileRecords.BatchMatcher;
import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** Header scans through the read-only mapping agree with positional reads, on both sides of its end. */
public class FileRecordsMappingTest {

    private static final int REMAP_GROWTH = 8 * 1024;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private Path file;
    private FileRecords records;
    // What the writer appended: base offset, position and size of each batch.
    private final List<BatchLocation> written = new ArrayList<>();
    private long nextOffset;
    private volatile long publishedLastOffset = -1;

    @Before
    public void setUp() throws IOException {
        file = temp.newFolder("t-0").toPath().resolve(LogFileNames.logFile(temp.getRoot().toPath(), 0).getFileName());
        records = FileRecords.open(file, LogFileOpener.DEFAULT, REMAP_GROWTH);
    }

    @After
    public void tearDown() throws IOException {
        records.close();
    }

    @Test
    public void everyOffsetIsFoundAsPositionalReadsFindItWhileTheFileGrows() throws IOException {
        Random random = new Random(42);
        for (int round = 0; round < 60; round++) {
            for (int i = 0; i < 10; i++) {
                appendBatch(1 + random.nextInt(8));
            }
            int end = records.sizeInBytes();
            // Start from 0 and from a batch boundary near the mapping's end, as an index entry would.
            int mapped = records.mappedBytes();
            for (long offset = 0; offset < nextOffset; offset++) {
                assertEquals(expected(offset), records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, offset, 0, end));
                assertEquals(byPositionalReads(offset, 0, end), records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, offset, 0, end));
                int from = boundaryAtOrBelow(mapped - 30);
                if (expected(offset).position() >= from) {
                    assertEquals(expected(offset), records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, offset, from, end));
                }
            }
            assertNull(records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, nextOffset, 0, end));
        }
        assertTrue("the mapping was used: " + records.mappedBytes(), records.mappedBytes() > 0);
        assertTrue("part of the file lay beyond the mapping", records.mappedBytes() < records.sizeInBytes());
    }

    @Test
    public void theMappingStaysBelowThePublishedEndAndTheFileLength() throws IOException {
        while (records.sizeInBytes() < 3 * REMAP_GROWTH) {
            appendBatch(5);
            records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, nextOffset - 1, 0, records.sizeInBytes());
            assertTrue(records.mappedBytes() <= records.sizeInBytes());
            assertEquals("mapping never extends the file", records.sizeInBytes(), Files.size(file));
        }
        assertTrue(records.mappedBytes() > 0);
        // Bytes below a reader's end only: a header past the end is not a whole batch.
        int lastStart = written.get(written.size() - 1).position();
        assertNull(records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, nextOffset - 1, lastStart, lastStart + 60));
    }

    @Test
    public void aSealedFileIsMappedWholeAtTheNextRead() throws IOException {
        appendBatch(3);
        records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, 0, 0, records.sizeInBytes());
        assertEquals("small growth does not remap", 0, records.mappedBytes());
        records.seal();
        assertEquals(expected(1), records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, 1, 0, records.sizeInBytes()));
        assertEquals(records.sizeInBytes(), records.mappedBytes());
    }

    @Test
    public void truncationDropsTheMappingAndLaterReadsSeeTheShorterFile() throws IOException {
        while (records.sizeInBytes() < 2 * REMAP_GROWTH) {
            appendBatch(4);
        }
        records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, 0, 0, records.sizeInBytes());
        assertTrue(records.mappedBytes() > 0);
        BatchLocation cut = written.get(written.size() / 2);
        records.truncateTo(cut.position());
        assertEquals(0, records.mappedBytes());
        written.subList(written.size() / 2, written.size()).clear();
        nextOffset = cut.baseOffset();
        while (records.sizeInBytes() < 4 * REMAP_GROWTH) {
            appendBatch(2);
        }
        for (long offset = 0; offset < nextOffset; offset++) {
            assertEquals(expected(offset), records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, offset, 0, records.sizeInBytes()));
        }
    }

    @Test
    public void aReaderRacingWithTheWriterFindsEveryPublishedOffset() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try {
                Random random = new Random(7);
                while (!stop.get()) {
                    // The last offset first: the size read after it covers that offset's batch.
                    long upTo = publishedLastOffset;
                    int end = records.sizeInBytes();
                    if (upTo < 0) {
                        continue;
                    }
                    BatchLocation first = records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, 0, 0, end);
                    assertEquals(0, first.position());
                    long offset = (long) (random.nextDouble() * (upTo + 1));
                    BatchLocation found = records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, offset, 0, end);
                    RecordBatch header = RecordBatch.wrap(readAt(found), 0);
                    assertTrue(header.baseOffset() <= offset && header.lastOffset() >= offset);
                    assertTrue(found.position() + found.size() <= end);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        while (records.sizeInBytes() < 40 * REMAP_GROWTH && failure.get() == null) {
            appendBatch(3);
        }
        stop.set(true);
        reader.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    public void aClosedFileIsNeitherRemappedNorReadThroughAnOldMapping() throws IOException {
        while (records.sizeInBytes() < 2 * REMAP_GROWTH) {
            appendBatch(4);
        }
        records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, 0, 0, records.sizeInBytes());
        assertTrue(records.mappedBytes() > 0);
        int end = records.sizeInBytes();
        records.close();
        assertEquals(0, records.mappedBytes());
        assertThrows(IOException.class, () -> records.search(BatchMatcher.LAST_OFFSET_AT_LEAST, 1, 0, end));
        assertEquals(0, records.mappedBytes());
    }

    private void appendBatch(int recordCount) throws IOException {
        String[] values = new String[recordCount];
        for (int i = 0; i < recordCount; i++) {
            values[i] = "value-" + (nextOffset + i);
        }
        ByteBuffer buffer = batch(1000 + nextOffset, values);
        RecordBatch.wrap(buffer, buffer.position()).setBaseOffset(nextOffset);
        int position = records.append(buffer);
        written.add(new BatchLocation(position, buffer.remaining(), nextOffset));
        nextOffset += recordCount;
        publishedLastOffset = nextOffset - 1;
    }

    private ByteBuffer readAt(BatchLocation location) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(location.size());
            IoUtils.readFully(records.channel(), buffer, location.position());
            return buffer.flip();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private BatchLocation expected(long offset) {
        BatchLocation found = null;
        for (BatchLocation location : written) {
            if (location.baseOffset() <= offset) {
                found = location;
            }
        }
        return found;
    }

    private int boundaryAtOrBelow(int position) {
        int boundary = 0;
        for (BatchLocation location : written) {
            if (location.position() <= position) {
                boundary = location.position();
            }
        }
        return boundary;
    }

    /** The same scan with every header read by a positional read: the path before mapping. */
    private BatchLocation byPositionalReads(long offset, int start, int end) throws IOException {
        BatchHeaders headers = BatchHeaders.local();
        int position = start;
        for (RecordBatch header = headers.read(records.channel(), position, end); header != null;
             header = headers.read(records.channel(), position, end)) {
            if (header.lastOffset() >= offset) {
                return new BatchLocation(position, header.sizeInBytes(), header.baseOffset());
            }
            position += header.sizeInBytes();
        }
        return null;
    }
}
