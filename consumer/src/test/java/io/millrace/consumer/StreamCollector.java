package io.millrace.consumer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads message streams on threads of its own, as an application would, and keeps what arrives.
 * {@link #stop()} makes the threads drop anything delivered after it, as a crashed process would.
 */
final class StreamCollector {

    final ConcurrentLinkedQueue<ConsumerRecord<String, String>> received = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    StreamCollector(List<MessageStream<String, String>> streams) {
        for (MessageStream<String, String> stream : streams) {
            Thread thread = new Thread(() -> drain(stream), "collector");
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
    }

    private void drain(MessageStream<String, String> stream) {
        try {
            for (ConsumerRecord<String, String> record : stream) {
                if (stopped) {
                    return;
                }
                received.add(record);
            }
        } catch (RuntimeException e) {
            // a stream of a consumer whose session a test ended may fail; what was received stays
        }
    }

    void stop() {
        stopped = true;
    }

    int count() {
        return received.size();
    }

    List<String> values() {
        return received.stream().map(ConsumerRecord::value).toList();
    }
}
