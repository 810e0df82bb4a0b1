/**
 * Internal: maintenance leadership of a schema (M1, D8, O6): the elector that holds the session
 * advisory lock on a dedicated connection, and the fence every leader-only batch takes. Not part of
 * the public API.
 */
@NullMarked
package io.taskq.postgres.internal.leader;

import org.jspecify.annotations.NullMarked;
