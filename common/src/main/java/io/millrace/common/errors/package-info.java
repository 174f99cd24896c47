/**
 * The exceptions Millrace throws on purpose. {@link io.millrace.common.errors.InvalidRecordException}
 * and its subclasses are the only exceptions that reading untrusted record bytes can raise.
 */
package io.millrace.common.errors;
