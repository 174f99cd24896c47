/**
 * One immutable request record and one response record per Kafka API Millrace parses, each with a
 * static {@code parse(ByteBuffer, short version)} and the {@link io.millrace.common.protocol.ApiMessage}
 * methods {@code write}, {@code writeTo} and {@code sizeInBytes}. Each class's javadoc holds its
 * byte layout and the "Version N adds ..." history. Records fields are carried as unparsed slices;
 * {@link io.millrace.common.protocol.message.FetchResponse} can be written as segments so that
 * the broker sends the records from its segment files without copying them. The consumer-group
 * messages (JoinGroup, OffsetCommit, ...) are parsed and written here ahead of the broker serving
 * them; group protocol metadata and assignments stay opaque slices, as the coordinator needs them.
 */
package io.millrace.common.protocol.message;
