/**
 * The start-up checks (P3) and start-up log lines (P4): each check in its own class, all run from
 * {@link io.taskq.postgres.internal.startup.StartupChecks#run} at one place in the start. Internal:
 * not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.startup;

import org.jspecify.annotations.NullMarked;
