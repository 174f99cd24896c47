/**
 * The broker comparison's HTML report: {@link io.millrace.bench.compare.report.HtmlReport} turns a
 * {@code results.json} into one self-contained page of tables and inline SVG charts.
 */
package io.millrace.bench.compare.report;
