/**
 * The loader's command-line tools: {@code bin/millrace load} ({@link io.millrace.hadoop.tools.LoadCommand})
 * and the generator of the settings table in docs/hadoop.md ({@link io.millrace.hadoop.tools.LoadConfigDocs}).
 */
package io.millrace.hadoop.tools;
