/** Internal: the SQL side of the operations API (A1-A4). Not a public API. */
@NullMarked
package io.taskq.postgres.internal.operations;

import org.jspecify.annotations.NullMarked;
