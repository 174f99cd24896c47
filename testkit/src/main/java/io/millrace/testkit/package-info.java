/**
 * Test-scope helpers shared by every module's tests: a {@link io.millrace.testkit.MockTime} to
 * drive time-based behaviour without sleeping, temporary directories, file corrupters, record
 * fixtures and an {@link io.millrace.testkit.EmbeddedZooKeeper}. Nothing here is used by production code.
 */
package io.millrace.testkit;
