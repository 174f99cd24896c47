package io.millrace.broker.log;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class IndexTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private OffsetIndex offsetIndex(int maxBytes) throws IOException {
        OffsetIndex index = new OffsetIndex(temp.getRoot().toPath().resolve("00000000000000001000.index"), 1000,
            LogFileOpener.DEFAULT);
        index.resize(maxBytes);
        return index;
    }

    @Test
    public void offsetLookupReturnsThePositionOfTheLastEntryAtOrBelowTheTarget() throws IOException {
        OffsetIndex index = offsetIndex(1024);
        index.append(1010, 400);
        index.append(1020, 900);
        assertEquals(0, index.lookup(1000));
        assertEquals(0, index.lookup(1009));
        assertEquals(400, index.lookup(1010));
        assertEquals(400, index.lookup(1019));
        assertEquals(900, index.lookup(5000));
        index.close();
    }

    @Test
    public void offsetIndexRejectsOutOfOrderEntriesAndAppendsWhenFull() throws IOException {
        OffsetIndex index = offsetIndex(16);
        index.append(1001, 10);
        assertThrows(IllegalArgumentException.class, () -> index.append(1001, 20));
        index.append(1002, 20);
        assertTrue(index.isFull());
        assertThrows(IllegalStateException.class, () -> index.append(1003, 30));
        index.close();
    }

    @Test
    public void aClosedIndexIsTrimmedToItsEntriesAndReopensWithThem() throws IOException {
        OffsetIndex index = offsetIndex(1024);
        index.append(1005, 100);
        index.append(1009, 250);
        Path file = index.file();
        assertEquals(1024, Files.size(file));
        index.close();
        assertEquals(16, Files.size(file));

        OffsetIndex reopened = new OffsetIndex(file, 1000, LogFileOpener.DEFAULT);
        assertEquals(2, reopened.entries());
        assertEquals(1009, reopened.lastOffset());
        assertEquals(250, reopened.lookup(1010));
        assertNull(reopened.sanityCheck(300));
        assertNotNull("position beyond the log", reopened.sanityCheck(200));
        reopened.close();
    }

    @Test
    public void anUntrimmedPreallocatedIndexFailsItsSanityCheck() throws IOException {
        OffsetIndex index = offsetIndex(1024);
        index.append(1005, 100);
        index.flush();
        // Simulate a crash: the file keeps its preallocated zeros.
        OffsetIndex crashed = new OffsetIndex(index.file(), 1000, LogFileOpener.DEFAULT);
        assertNotNull(crashed.sanityCheck(1000));
        crashed.closeQuietly();
        index.close();
    }

    @Test
    public void timeIndexKeepsStrictlyIncreasingTimestampsAndAFinalSlot() throws IOException {
        TimeIndex index = new TimeIndex(temp.getRoot().toPath().resolve("00000000000000000000.timeindex"), 0,
            LogFileOpener.DEFAULT);
        index.resize(36);
        index.maybeAppend(100, 3);
        index.maybeAppend(100, 5);
        index.maybeAppend(90, 6);
        assertEquals(1, index.entries());
        index.maybeAppend(200, 8);
        assertTrue("one slot kept for the final entry", index.isFull());
        index.maybeAppend(300, 9);
        assertEquals(2, index.entries());
        index.appendFinal(300, 9);
        assertEquals(3, index.entries());
        assertEquals(300, index.lastTimestamp());

        assertEquals(0, index.lookupStart(100));
        assertEquals(3, index.lookupStart(101));
        assertEquals(8, index.lookupStart(300));
        assertEquals(9, index.lookupStart(301));
        assertNull(index.sanityCheck(0));
        index.close();
    }

    @Test
    public void anIndexWithATornEntryFailsItsSanityCheck() throws IOException {
        Path file = temp.getRoot().toPath().resolve("00000000000000000000.index");
        Files.write(file, new byte[] {0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0});
        OffsetIndex index = new OffsetIndex(file, 0, LogFileOpener.DEFAULT);
        assertFalse(index.sanityCheck(100) == null);
        index.closeQuietly();
    }
}
