/** The TaskQ domain API: configuration, job statuses, retry policies. */
@NullMarked
package io.taskq.core;

import org.jspecify.annotations.NullMarked;
