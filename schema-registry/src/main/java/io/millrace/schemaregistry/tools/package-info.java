/**
 * Command-line entry points of the schema registry behind {@code bin/millrace}: the server itself
 * and the generator of its configuration reference. The only registry classes that print to the
 * console; everything they call logs through SLF4J.
 */
package io.millrace.schemaregistry.tools;
