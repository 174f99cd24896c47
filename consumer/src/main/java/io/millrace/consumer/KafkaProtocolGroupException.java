package io.millrace.consumer;

import io.millrace.common.errors.MillraceException;

/**
 * The group id is in use by a consumer group of Kafka's protocol (KafkaConsumer with
 * {@code subscribe()}), coordinated by a broker: a group id is of one kind at a time, so the
 * ZooKeeper group consumer does not register in it. Stop the Kafka consumers or pick another
 * group id.
 */
public class KafkaProtocolGroupException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public KafkaProtocolGroupException(String message) {
        super(message);
    }
}
