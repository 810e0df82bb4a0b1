/**
 * The Redis side of rate limits and progress: the connection, the Lua scripts and how they are
 * called, and the progress payload codec. Internal: not an API, may change in any release.
 */
@NullMarked
package io.taskq.redis.internal;

import org.jspecify.annotations.NullMarked;
