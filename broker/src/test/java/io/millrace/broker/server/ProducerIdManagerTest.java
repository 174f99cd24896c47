package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.ProducerIdBlock;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.junit.After;
import org.junit.Test;

public class ProducerIdManagerTest {

    /** Blocks of 10, handed out only when the test releases them. */
    private final BlockingQueue<Object> releases = new LinkedBlockingQueue<>();
    private long nextFirst = 100;
    private ProducerIdManager manager;

    private ProducerIdBlock allocate() throws Exception {
        Object release = releases.take();
        if (release instanceof Exception e) {
            throw e;
        }
        ProducerIdBlock block = new ProducerIdBlock(0, nextFirst, nextFirst + 9);
        nextFirst += 1000; // other brokers take the blocks between
        return block;
    }

    private ProducerIdManager manager(Duration maxWait) {
        manager = new ProducerIdManager(this::allocate, maxWait, "test-producer-ids");
        return manager;
    }

    @After
    public void close() {
        if (manager != null) {
            manager.close();
        }
    }

    private static Errors errorOf(CompletableFuture<Long> id) throws Exception {
        try {
            id.get(10, TimeUnit.SECONDS);
            return Errors.NONE;
        } catch (ExecutionException e) {
            return ((ApiException) e.getCause()).error();
        }
    }

    @Test
    public void aRequestBeforeTheFirstBlockWaitsForItWithoutBlockingItsThread() throws Exception {
        manager(Duration.ofSeconds(30)).start();
        CompletableFuture<Long> first = manager.nextId();
        assertFalse("returned before any block exists", first.isDone());
        releases.add("block");
        assertEquals(100L, (long) first.get(10, TimeUnit.SECONDS));
    }

    @Test
    public void idsIncreaseAcrossBlocksAndTheNextBlockIsFetchedAhead() throws Exception {
        manager(Duration.ofSeconds(30)).start();
        releases.add("block");
        releases.add("block");
        long previous = -1;
        for (int i = 0; i < 20; i++) {
            long id = manager.nextId().get(10, TimeUnit.SECONDS);
            assertTrue(id + " after " + previous, id > previous);
            previous = id;
        }
        assertEquals(1109, previous);
    }

    @Test
    public void noBlockInTimeIsCoordinatorLoadInProgress() throws Exception {
        manager(Duration.ofMillis(50)).start();
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, errorOf(manager.nextId()));
        releases.add("block");
        assertEquals(100L, (long) manager.nextId().get(10, TimeUnit.SECONDS));
    }

    @Test
    public void aLostConnectionIsRetriableAndOtherFailuresAreUnknownServerErrors() throws Exception {
        // Not started: each fetch begins with a request, so each takes the release meant for it.
        manager(Duration.ofSeconds(30));
        releases.add(new KeeperException.ConnectionLossException());
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, errorOf(manager.nextId()));
        releases.add(new IllegalStateException("ids exhausted"));
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, errorOf(manager.nextId()));
        releases.add("block");
        assertEquals("a later request fetches afresh", 100L, (long) manager.nextId().get(10, TimeUnit.SECONDS));
    }
}
