package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A shutdown whose timeout passes while a handler is inside FileChannel I/O leaves the handler
 * alone: an interrupt there would close the channel (ClosedByInterruptException), which for a
 * partition log means a directory taken offline and no clean-shutdown marker.
 */
public class ShutdownDuringFileIoTest {

    @Rule
    public final ServerFixture servers = new ServerFixture();

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @Test(timeout = 60_000)
    public void aHandlerStillWritingAFileWhenTheShutdownTimeoutEndsIsNotInterrupted() throws Exception {
        Path file = temp.newFile().toPath();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            RequestHandler slowWriter = (context, payload) -> {
                writing.countDown();
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_500);
                try {
                    while (System.nanoTime() < end) {
                        channel.write(ByteBuffer.allocate(4096), 0);
                    }
                } catch (Exception e) {
                    failure.set(e);
                } finally {
                    done.countDown();
                    context.sendResponse(ResponseSend.of(payload.retainedDuplicate()));
                }
            };
            NetworkServer server = servers.start(slowWriter);
            TestClient client = servers.connect(server);
            client.send("write");
            assertTrue(writing.await(10, TimeUnit.SECONDS));
            server.shutdown(Duration.ofMillis(100));
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals("the handler's file I/O was cut short", null, failure.get());
            assertTrue("the channel is still open", channel.isOpen());
        }
    }
}
