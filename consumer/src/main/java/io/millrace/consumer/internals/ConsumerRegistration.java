package io.millrace.consumer.internals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.millrace.common.errors.MillraceException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One consumer's entry in the consumer registry: what it subscribes to and with how many streams.
 * A {@code static} subscription maps topic names to stream counts; a {@code white_list} one maps
 * a single regular expression to the stream count every matching topic gets. Stored as
 * {@code {"version":1,"subscription":{...},"pattern":"static|white_list","timestamp":...}}. Immutable.
 */
public record ConsumerRegistration(String consumerId, Map<String, Integer> subscription, boolean whiteList, long timestamp) {

    public static final String STATIC = "static";
    public static final String WHITE_LIST = "white_list";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public ConsumerRegistration {
        subscription = Map.copyOf(subscription);
    }

    /** How many streams this consumer reads {@code topic} with; 0 when it does not subscribe to it. */
    public int streamsFor(String topic) {
        if (!whiteList) {
            return subscription.getOrDefault(topic, 0);
        }
        for (Map.Entry<String, Integer> entry : subscription.entrySet()) {
            if (!topic.startsWith("__") && Pattern.matches(entry.getKey(), topic)) {
                return entry.getValue();
            }
        }
        return 0;
    }

    /** The consumer's thread ids for {@code topic}: {@code <consumerId>-<stream>}, what owner nodes hold. */
    public List<String> threadsFor(String topic) {
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < streamsFor(topic); i++) {
            threads.add(threadId(consumerId, i));
        }
        return threads;
    }

    public static String threadId(String consumerId, int stream) {
        return consumerId + "-" + stream;
    }

    public byte[] toJson() {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("version", 1);
        ObjectNode topics = json.putObject("subscription");
        subscription.forEach(topics::put);
        json.put("pattern", whiteList ? WHITE_LIST : STATIC);
        json.put("timestamp", timestamp);
        try {
            return MAPPER.writeValueAsBytes(json);
        } catch (IOException e) {
            throw new MillraceException("Cannot write the registration of " + consumerId, e);
        }
    }

    public static ConsumerRegistration parse(String consumerId, byte[] data) {
        try {
            JsonNode json = MAPPER.readTree(data);
            Map<String, Integer> subscription = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : json.path("subscription").properties()) {
                subscription.put(field.getKey(), field.getValue().asInt());
            }
            boolean whiteList = WHITE_LIST.equals(json.path("pattern").asText(STATIC));
            return new ConsumerRegistration(consumerId, subscription, whiteList, json.path("timestamp").asLong(-1));
        } catch (IOException | RuntimeException e) {
            throw new MillraceException("Malformed registration of consumer " + consumerId + ": " + e.getMessage(), e);
        }
    }
}
