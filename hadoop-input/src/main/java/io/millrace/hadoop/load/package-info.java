/**
 * The load job: a map-only MapReduce job that writes Avro files by topic and event hour into a
 * staging directory, and the commit that makes them and the offsets they reach visible together:
 * one manifest renamed into place (the commit point), then idempotent moves that the next load's
 * recovery replays after a crash. docs/hadoop.md has the argument why every event lands exactly once.
 */
package io.millrace.hadoop.load;
