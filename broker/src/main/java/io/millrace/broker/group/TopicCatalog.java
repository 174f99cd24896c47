package io.millrace.broker.group;

import java.util.Collection;

/** The topics a consumer-protocol group's subscriptions are resolved against: their names and partition counts. */
interface TopicCatalog {

    /** Every topic a regular expression may match; internal topics are left out. */
    Collection<String> names();

    /** The topic's partition count, 0 when it does not exist. */
    int partitionCount(String topic);
}
