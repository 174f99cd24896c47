/**
 * The Kafka wire protocol as Millrace speaks it, shared by the broker and the clients: bytes to
 * objects and back over {@link java.nio.ByteBuffer}, with no networking and no request handling.
 * {@link io.millrace.common.protocol.ApiKey} lists the APIs and versions served,
 * {@link io.millrace.common.protocol.RequestHeader} and {@link io.millrace.common.protocol.ResponseHeader}
 * frame every body, {@link io.millrace.common.protocol.Errors} is the one table of error codes, and
 * {@link io.millrace.common.protocol.Frames} writes whole frames. The bodies are in the
 * {@code message} sub-package, the primitive encodings in {@code types}. docs/protocol.md lists
 * every deviation from Apache Kafka.
 */
package io.millrace.common.protocol;
