/**
 * Concurrency caps (L7, S10, M7): per queue, per actor and per key, enforced at claim time with
 * reservation slots in PostgreSQL, and each worker's bounded registry of the reservations it used.
 * Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.caps;

import org.jspecify.annotations.NullMarked;
