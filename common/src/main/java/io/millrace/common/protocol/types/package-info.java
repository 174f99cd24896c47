/**
 * The Kafka protocol's primitive types: fixed-width integers, varints, strings, bytes, arrays,
 * UUIDs and tagged fields, in their classic and compact ("flexible version") encodings.
 * {@link io.millrace.common.protocol.types.ProtocolReader} reads untrusted bytes and raises only
 * {@link io.millrace.common.protocol.InvalidRequestException}; one
 * {@link io.millrace.common.protocol.types.ProtocolWriter} method per message serves writing
 * ({@link io.millrace.common.protocol.types.BufferWriter}), sizing
 * ({@link io.millrace.common.protocol.types.SizeCounter}) and zero-copy segmenting
 * ({@link io.millrace.common.protocol.types.SegmentWriter}).
 */
package io.millrace.common.protocol.types;
