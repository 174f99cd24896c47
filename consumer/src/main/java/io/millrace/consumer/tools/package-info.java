/**
 * The consumer's command-line tools behind {@code bin/millrace}: {@link io.millrace.consumer.tools.ConsoleConsumer},
 * {@link io.millrace.consumer.tools.ConsumerGroupsCommand} (list, describe, reset a group's offsets),
 * {@link io.millrace.consumer.tools.PerfConsumer} and {@link io.millrace.consumer.tools.ConsumerConfigDocs},
 * which regenerates the settings table of docs/clients.md. These are the only consumer classes that
 * print to the console; each has a {@code run(args, out, err)} that tests drive.
 */
package io.millrace.consumer.tools;
