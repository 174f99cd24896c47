/**
 * Command-line entry points behind {@code bin/millrace}: the broker and the standalone ZooKeeper,
 * {@link io.millrace.broker.tools.LogDemo} (appending, reading, a crash and recovery),
 * {@link io.millrace.broker.tools.DumpLog} (the batches and records of a segment file, read
 * only) and the configuration reference generator. These are the only broker classes that print
 * to the console; everything they call logs through SLF4J.
 */
package io.millrace.broker.tools;
