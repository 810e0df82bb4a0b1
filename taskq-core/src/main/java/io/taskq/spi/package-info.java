/**
 * The signals TaskQ emits, as plain Java interfaces a metrics binding implements (D3, O1-O7).
 *
 * <p>Core depends on no metrics library: {@link io.taskq.spi.MaintenanceListener} carries the
 * maintenance leader's signals with default no-op methods, and the Micrometer binding (module
 * {@code taskq-metrics}) maps each method 1:1 to a meter. {@link io.taskq.spi.MaintenanceHealth}
 * turns the same signals into the {@code maintenance} object of the readiness view. {@link
 * io.taskq.spi.JobListener} carries the job lifecycle signals (enqueued, started, succeeded,
 * failed) the same way.
 */
@NullMarked
package io.taskq.spi;

import org.jspecify.annotations.NullMarked;
