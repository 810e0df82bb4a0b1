/**
 * Recording outcomes in batches (L1, L3, L5, B6, D9): the completer thread and the fenced batch
 * write. Internal: not an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.completion;

import org.jspecify.annotations.NullMarked;
