/** Micrometer binding of TaskQ's metrics. */
@NullMarked
package io.taskq.metrics;

import org.jspecify.annotations.NullMarked;
