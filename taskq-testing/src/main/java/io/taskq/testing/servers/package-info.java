/**
 * Servers a test starts for itself: a private Redis or PostgreSQL that the test may freeze, kill,
 * restart, flush or count server-wide without disturbing anyone else's run (requirement R8).
 */
@NullMarked
package io.taskq.testing.servers;

import org.jspecify.annotations.NullMarked;
