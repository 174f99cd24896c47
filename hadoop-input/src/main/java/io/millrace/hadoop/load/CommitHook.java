package io.millrace.hadoop.load;

import java.io.IOException;

/**
 * Told when a load reaches each {@link CommitStep}. Production loads use {@link #NONE}; tests stop the
 * load at a step (an exception, or halting the JVM) to prove that the next load recovers from a crash
 * at that instant.
 */
@FunctionalInterface
public interface CommitHook {

    CommitHook NONE = step -> { };

    void reached(CommitStep step) throws IOException;
}
