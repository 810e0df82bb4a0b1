/**
 * Internal: the bounded maintenance sweeps (guide §1-§3) and the machinery every sweep shares.
 *
 * <p>A sweep is a {@link io.taskq.postgres.internal.sweep.SweepBatch}: one bounded batch of work on
 * a transaction it is handed. The batch executor around it owns the transaction, the fence, the
 * {@code statement_timeout} capture and restore (B2, B3) and the commit; the sweep loop decides how
 * often each sweep runs ({@link io.taskq.postgres.internal.sweep.Cadence}) and how far it drains.
 * Not part of the public API; it may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.sweep;

import org.jspecify.annotations.NullMarked;
