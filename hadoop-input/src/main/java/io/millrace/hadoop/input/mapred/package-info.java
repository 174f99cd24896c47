/**
 * The InputFormat for the old {@code org.apache.hadoop.mapred} API (Hive and older jobs): a thin adapter
 * over the same planning and record reader, with the old API's splits and reporter.
 */
package io.millrace.hadoop.input.mapred;
