/** Implementation of the PostgreSQL store. Internal: not an API; may change in any release. */
@NullMarked
package io.taskq.postgres.internal;

import org.jspecify.annotations.NullMarked;
