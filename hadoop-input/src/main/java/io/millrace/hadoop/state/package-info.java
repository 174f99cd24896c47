/**
 * The load's state directory: committed manifests (the offsets reached and the files each load moves,
 * renamed into place as the commit point), summaries (written once a load is complete), error output,
 * and the staging directories of running loads. {@link io.millrace.hadoop.state.StateDir} owns the
 * layout; JSON files are written whole or not at all.
 */
package io.millrace.hadoop.state;
