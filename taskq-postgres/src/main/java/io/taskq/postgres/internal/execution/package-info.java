/**
 * Running a claimed job's handler and turning what it did into an outcome (L5, F6). Internal: not
 * an API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.execution;

import org.jspecify.annotations.NullMarked;
