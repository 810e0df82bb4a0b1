/**
 * The maintenance sweeps of guide §1 (S1-S9, S11): each sweep is one small {@link
 * io.taskq.postgres.internal.sweep.SweepBatch} that runs one bounded batch inside a transaction the
 * sweep loop opened. Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.sweep;

import org.jspecify.annotations.NullMarked;
