/**
 * Command-line entry points behind {@code bin/millrace}: the standalone ZooKeeper, the log demo,
 * the segment dumper and the configuration reference generator. These are the only broker
 * classes that print to the console; everything they call logs through SLF4J.
 */
package io.millrace.broker.tools;
