/** Test-only support for the PostgreSQL store's tests. */
@NullMarked
package io.taskq.postgres.testing;

import org.jspecify.annotations.NullMarked;
