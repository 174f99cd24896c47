package io.millrace.hadoop.state;

/** One file a committed load moves from its staging directory to where it belongs, both as full URIs. */
public record FileMove(String source, String destination) {
}
