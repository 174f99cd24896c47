/**
 * The front-end event generator, {@code bin/millrace event-generator}: page views, searches and service calls
 * with the long tails of real traffic ({@link io.millrace.examples.generator.FrontEndTraffic}), sent as
 * several simulated front-end hosts, each with its own Avro event producer and its own producer-tier audit
 * counts. {@link io.millrace.examples.generator.EventGenerator} is the part a demo or a benchmark calls;
 * {@link io.millrace.examples.generator.EventGeneratorMain} reads the command line and prints. The events
 * are the example schemas of {@code io.millrace.examples.events}.
 */
package io.millrace.examples.generator;
