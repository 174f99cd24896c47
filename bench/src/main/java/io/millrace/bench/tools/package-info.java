/**
 * Command-line tools around the benchmarks: {@link io.millrace.bench.tools.StorageReport} runs the
 * storage benchmarks through JMH and prints the Markdown table that docs/performance.md quotes.
 * Tools print to stdout; the benchmarks themselves live in {@code io.millrace.bench.storage}.
 */
package io.millrace.bench.tools;
