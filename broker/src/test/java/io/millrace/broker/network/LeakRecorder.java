package io.millrace.broker.network;

import static org.junit.Assert.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.rules.ExternalResource;
import org.junit.runner.Description;
import org.junit.runner.notification.RunListener;

/**
 * Makes Netty's leak detector record every leak it finds (at the paranoid level every buffer is
 * tracked) so that a test can fail on it. Netty creates its buffer leak detector once, when the
 * buffer classes load, so the recording factory must be installed before any test touches
 * Netty: surefire runs {@link InstallingListener} first (see broker/pom.xml), and the rule's
 * static initialiser installs it when a test runs alone.
 *
 * <p>Leaks are found when the garbage collector clears a buffer nobody released; {@link #after()}
 * forces that: a GC, a wait until the reference handler has queued the cleared references, then
 * one tracked allocation, which makes the detector report them.
 */
public final class LeakRecorder extends ExternalResource {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    private static volatile boolean installed;

    static {
        install();
    }

    static synchronized void install() {
        if (installed) {
            return;
        }
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingFactory());
        installed = true;
    }

    @Override
    protected void before() {
        collectLeaks();
        LEAKS.clear(); // leaks of earlier tests were reported there
    }

    @Override
    protected void after() {
        List<String> leaks = collectLeaks();
        if (!leaks.isEmpty()) {
            LEAKS.clear();
            fail(leaks.size() + " ByteBuf leak(s):\n" + String.join("\n", leaks));
        }
    }

    /** Forces leak detection and returns what was reported so far. */
    static List<String> collectLeaks() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            queue.remove(2_000); // the reference handler has processed this GC's cleared references
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sentinel.clear();
        // Tracking a new buffer makes the detector report. (Pooled: the unpooled allocator's
        // heap buffers are not tracked at all in Netty 4.1.137.)
        ByteBuf probe = PooledByteBufAllocator.DEFAULT.heapBuffer(1);
        probe.release();
        return new ArrayList<>(LEAKS);
    }

    /** Installs the recorder before the first test class of the module loads. */
    public static final class InstallingListener extends RunListener {
        public InstallingListener() {
            install();
        }

        @Override
        public void testRunStarted(Description description) {
            install();
        }
    }

    private static final class RecordingFactory extends ResourceLeakDetectorFactory {
        @Override
        public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
            return new RecordingDetector<>(resource, samplingInterval);
        }
    }

    private static final class RecordingDetector<T> extends ResourceLeakDetector<T> {
        RecordingDetector(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval);
        }

        @Override
        protected boolean needReport() {
            return true;
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add(resourceType + " leaked:" + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add(resourceType + " leaked (no trace)");
            super.reportUntracedLeak(resourceType);
        }
    }
}
