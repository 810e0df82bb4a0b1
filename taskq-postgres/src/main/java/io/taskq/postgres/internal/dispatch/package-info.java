/**
 * Claiming due jobs (L4): the claim statement, handler slots, wake-ups by LISTEN/NOTIFY and the
 * polling fallback (D11). Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.dispatch;

import org.jspecify.annotations.NullMarked;
