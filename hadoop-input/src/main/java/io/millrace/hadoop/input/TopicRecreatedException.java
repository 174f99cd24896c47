package io.millrace.hadoop.input;

import java.io.IOException;

/**
 * Planning found a topic that was deleted and created again since the last load, and the load is set to
 * fail on that ({@code millrace.hadoop.recreated.topic=fail}). Nothing was loaded or committed.
 */
public class TopicRecreatedException extends IOException {

    public TopicRecreatedException(String message) {
        super(message);
    }
}
