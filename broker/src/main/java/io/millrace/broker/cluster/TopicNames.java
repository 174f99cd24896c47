package io.millrace.broker.cluster;

import io.millrace.common.errors.InvalidTopicException;

/**
 * Kafka's rules for topic names, which Millrace keeps so that every Kafka tool accepts its topics:
 * 1 to 249 characters from {@code [a-zA-Z0-9._-]}, and neither "." nor "..". The length limit
 * leaves room for a partition suffix in a 255-character directory name.
 */
public final class TopicNames {

    public static final int MAX_LENGTH = 249;

    private TopicNames() {
    }

    /** Throws {@link InvalidTopicException} saying what is wrong with {@code topic}. */
    public static void validate(String topic) {
        if (topic == null || topic.isEmpty()) {
            throw new InvalidTopicException("Topic name is empty");
        }
        if (topic.equals(".") || topic.equals("..")) {
            throw new InvalidTopicException("Topic name cannot be \".\" or \"..\"");
        }
        if (topic.length() > MAX_LENGTH) {
            throw new InvalidTopicException("Topic name is " + topic.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        for (int i = 0; i < topic.length(); i++) {
            if (!isLegal(topic.charAt(i))) {
                throw new InvalidTopicException("Topic name \"" + topic + "\" has the illegal character '" + topic.charAt(i)
                    + "' at index " + i + "; legal characters are ASCII letters, digits, '.', '_' and '-'");
            }
        }
    }

    public static boolean isValid(String topic) {
        try {
            validate(topic);
            return true;
        } catch (InvalidTopicException e) {
            return false;
        }
    }

    private static boolean isLegal(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    }
}
