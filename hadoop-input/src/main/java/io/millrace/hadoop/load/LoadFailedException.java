package io.millrace.hadoop.load;

import java.io.IOException;

/** A load that committed nothing: the job failed, or too many messages were undecodable. The state is as before it. */
public class LoadFailedException extends IOException {

    public LoadFailedException(String message) {
        super(message);
    }
}
