/** Benchmarks of TaskQ against a raw-SQL baseline; run them, do not depend on them. */
@NullMarked
package io.taskq.benchmarks;

import org.jspecify.annotations.NullMarked;
