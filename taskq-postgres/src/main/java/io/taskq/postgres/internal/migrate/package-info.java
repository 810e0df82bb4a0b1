/**
 * The schema migration runner (U1): numbered plain-SQL files applied in order under the {@code
 * migrate} advisory lock. Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.migrate;

import org.jspecify.annotations.NullMarked;
