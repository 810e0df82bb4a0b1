/**
 * The worker: its registration, settings, threads and the engine that wires dispatch, execution,
 * completion and leases together. Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.worker;

import org.jspecify.annotations.NullMarked;
