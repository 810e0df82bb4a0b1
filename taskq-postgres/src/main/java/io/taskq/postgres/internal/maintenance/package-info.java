/**
 * Internal: the maintenance component of one schema: the leader's sweep loop (S14), the 1-second
 * loop (S3), their transient-error retry, and the wiring of sweeps, elector, breaker and signals.
 * Not part of the public API.
 */
@NullMarked
package io.taskq.postgres.internal.maintenance;

import org.jspecify.annotations.NullMarked;
