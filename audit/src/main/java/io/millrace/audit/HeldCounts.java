package io.millrace.audit;

/**
 * Counts a tier held back until the data they describe was committed, moved into a window at once:
 * {@code timed} events (whose time places them in the window), the {@code bytes} of those and of the
 * events without a time, {@code noTime} and {@code malformed} events (placed by their arrival).
 */
record HeldCounts(long timed, long bytes, long noTime, long malformed) {
}
