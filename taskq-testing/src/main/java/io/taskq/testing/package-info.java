/** Test support: real PostgreSQL schemas and Redis key prefixes for JUnit 5 tests. */
@NullMarked
package io.taskq.testing;

import org.jspecify.annotations.NullMarked;
