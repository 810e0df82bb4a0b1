/**
 * Internal: the on-demand bulk operations (S13, F1-F4): bulk cancel and actor deregistration,
 * drained in committed batches. Not a public API.
 */
@NullMarked
package io.taskq.postgres.internal.bulk;

import org.jspecify.annotations.NullMarked;
