package io.millrace.hadoop.load;

/** An Avro file a task wrote: its path relative to the job's output, its topic, event hour, writer schema id and event count. */
public record WrittenFile(String path, String topic, long hourMs, int schemaId, long records) {
}
