/** Redis rate limits and progress streams for TaskQ. */
@NullMarked
package io.taskq.redis;

import org.jspecify.annotations.NullMarked;
