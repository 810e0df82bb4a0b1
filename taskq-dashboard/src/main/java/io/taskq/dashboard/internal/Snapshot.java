package io.taskq.dashboard.internal;

import java.time.Instant;

/**
 * A value the {@link Inventory} read, and when it read it: pages show the time beside the counts.
 *
 * @param value what was read
 * @param readAt when it was read
 * @param <T> the value's type
 */
record Snapshot<T>(T value, Instant readAt) {}
