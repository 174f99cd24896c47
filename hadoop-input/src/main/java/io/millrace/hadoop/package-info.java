/**
 * Loading Millrace topics into Hadoop: a MapReduce {@code InputFormat} that reads offset ranges fixed at
 * job start, the load job that makes data files and the offsets they reach visible in one step only when
 * the job succeeds, and Hive table support.
 */
package io.millrace.hadoop;
