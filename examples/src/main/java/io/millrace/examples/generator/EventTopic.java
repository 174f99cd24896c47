package io.millrace.examples.generator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The topics the generator knows and the event each holds: {@code page-views} holds
 * {@code PageViewEvent}s, {@code searches} {@code SearchEvent}s and {@code service-calls}
 * {@code ServiceCallEvent}s. The share is how many of every ten events go to the topic when all three are
 * generated: a front-end serves page views above all, and calls services for many of them.
 */
public enum EventTopic {

    PAGE_VIEWS("page-views", 5),
    SEARCHES("searches", 2),
    SERVICE_CALLS("service-calls", 3);

    private final String topic;
    private final int share;

    EventTopic(String topic, int share) {
        this.topic = topic;
        this.share = share;
    }

    /** The topic's name. */
    public String topic() {
        return topic;
    }

    int share() {
        return share;
    }

    /**
     * The topic named {@code name}.
     *
     * @throws IllegalArgumentException naming the topics the generator knows, when it knows no such topic
     */
    public static EventTopic of(String name) {
        for (EventTopic known : values()) {
            if (known.topic.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return known;
            }
        }
        throw new IllegalArgumentException("Unknown topic '" + name + "': the generator sends "
            + Stream.of(values()).map(EventTopic::topic).collect(Collectors.joining(", ")));
    }

    /** The topics of a comma-separated list, each once, in the order given. */
    public static List<EventTopic> list(String names) {
        List<EventTopic> topics = new ArrayList<>();
        for (String name : names.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            EventTopic topic = of(name);
            if (!topics.contains(topic)) {
                topics.add(topic);
            }
        }
        if (topics.isEmpty()) {
            throw new IllegalArgumentException("No topic in '" + names + "'");
        }
        return topics;
    }
}
