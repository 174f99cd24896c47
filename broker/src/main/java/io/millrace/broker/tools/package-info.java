/**
 * Command-line tools over the partition log, run by {@code bin/millrace}: {@link
 * io.millrace.broker.tools.LogDemo} ({@code demo}) walks through appending, reading, a crash and
 * recovery; {@link io.millrace.broker.tools.DumpLog} ({@code dump-log}) prints the batches and
 * records of a segment file without changing it. They use only the log's public API and print to
 * stdout; the log itself reports through SLF4J (stderr under {@code bin/millrace}).
 */
package io.millrace.broker.tools;
