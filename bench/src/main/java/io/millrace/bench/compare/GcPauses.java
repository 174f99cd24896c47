package io.millrace.bench.compare;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The stop-the-world collections of this JVM while it is open: how many, their total and the
 * longest, in milliseconds. An end-to-end run's producer and consumer share this JVM, so a pause
 * holds every message in flight at once; at a high rate a few pauses make the whole p99 tail.
 * Concurrent phases (G1's marking) do not stop the clients and are not counted.
 */
final class GcPauses implements AutoCloseable, NotificationListener {

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong totalMillis = new AtomicLong();
    private final AtomicLong longestMillis = new AtomicLong();

    GcPauses() {
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(this, null, null);
                emitters.add(emitter);
            }
        }
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        if (!isPause(info.getGcName(), info.getGcAction())) {
            return;
        }
        long millis = info.getGcInfo().getDuration();
        count.incrementAndGet();
        totalMillis.addAndGet(millis);
        longestMillis.accumulateAndGet(millis, Math::max);
    }

    /** G1 and the other collectors name their concurrent work apart from their pauses. */
    static boolean isPause(String gcName, String gcAction) {
        return !gcName.contains("Concurrent") && !gcAction.contains("concurrent");
    }

    long count() {
        return count.get();
    }

    long totalMillis() {
        return totalMillis.get();
    }

    long longestMillis() {
        return longestMillis.get();
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // never added: nothing to remove
            }
        }
    }
}
