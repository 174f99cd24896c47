/**
 * Where a benchmark's CPU time goes: {@link io.millrace.bench.profile.FlightRecordingSamples} reads
 * the execution samples of a JFR recording (optionally only those inside given time windows) into
 * a {@link io.millrace.bench.profile.CallTree}, and {@link io.millrace.bench.compare.report.FlameGraphSvg}
 * draws the tree as a self-contained SVG flame graph.
 */
package io.millrace.bench.profile;
