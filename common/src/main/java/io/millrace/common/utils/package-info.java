/**
 * Small utilities shared by broker and clients: the injectable {@link io.millrace.common.utils.Time}
 * and the varint and byte helpers the record format needs. Nothing here does I/O.
 */
package io.millrace.common.utils;
