package io.millrace.bench.curves;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class BrokerMemoryTest {

    @Test
    public void readsVmRssFromProcStatus() {
        assertEquals(123456, BrokerMemory.rssKb("Name:\tjava\nVmHWM:\t  200000 kB\nVmRSS:\t  123456 kB\nRssAnon:\t 1 kB\n"), 0);
        assertTrue(Double.isNaN(BrokerMemory.rssKb("Name:\tjava\n")));
    }

    @Test
    public void thisProcessHasAResidentSet() {
        double mb = BrokerMemory.rssMb(ProcessHandle.current().pid());
        assertTrue("VmRSS " + mb, mb > 1 && mb < 100_000);
    }

    @Test
    public void takesTheHeapsAddressRangeFromHeapInfo() {
        String info = "4242:\n garbage-first heap   total 1048576K, used 28416K [0x00000000c0000000, 0x0000000100000000)\n"
            + "  region size 1024K, 1 young (1024K), 0 survivors (0K)\n Metaspace       used 26207K\n";
        assertArrayEquals(new long[] {0xc0000000L, 0x100000000L}, BrokerMemory.heapRange(info));
    }

    @Test
    public void sumsTheResidentPagesOfTheMappingsInsideTheHeapOnly() {
        String smaps = """
            00400000-00401000 r-xp 00000000 fd:00 1234 /usr/bin/java
            Size:                  4 kB
            Rss:                   4 kB
            c0000000-d0000000 rw-p 00000000 00:00 0
            Size:             262144 kB
            Rss:              100000 kB
            d0000000-100000000 rw-p 00000000 00:00 0
            Size:             786432 kB
            Rss:               20000 kB
            7f0000000000-7f0000100000 rw-p 00000000 00:00 0
            Size:               1024 kB
            Rss:                 512 kB
            """;
        assertEquals(120000, BrokerMemory.residentKbWithin(smaps, 0xc0000000L, 0x100000000L), 0);
    }

    @Test
    public void takesTheLiveBytesFromTheHistogramsTotal() {
        String histogram = """
            4242:
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         42893        9284176  [B (java.base@17.0.15)
               2:          3788        1136272  [I (java.base@17.0.15)
            Total         59365        2832624
            """;
        assertEquals(2832624, BrokerMemory.histogramTotalBytes(histogram), 0);
    }
}
