/**
 * Declared configuration: every component lists its settings once in a
 * {@link io.millrace.common.config.ConfigDef} (name, type, default, validator, importance,
 * documentation); {@link io.millrace.common.config.AbstractConfig} parses and validates them at
 * startup, and the reference docs and sample properties files are rendered from the same list.
 */
package io.millrace.common.config;
