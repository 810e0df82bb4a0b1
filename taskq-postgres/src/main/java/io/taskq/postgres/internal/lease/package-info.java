/**
 * Keeping and giving back leases (L4, L10, L11, D9): the heartbeat and the shutdown release.
 * Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.lease;

import org.jspecify.annotations.NullMarked;
