/**
 * Test-scope helpers shared by every module's tests: a {@link io.millrace.testkit.MockTime} to
 * drive time-based behaviour without sleeping, temporary directories, a
 * {@link io.millrace.testkit.FileCorrupter} and a fault-injecting
 * {@link io.millrace.testkit.FaultyFileChannel} for storage tests, and record
 * fixtures. Nothing here is used by production code.
 */
package io.millrace.testkit;
