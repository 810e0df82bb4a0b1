package io.taskq.operations;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One stored pause (A4).
 *
 * @param target the paused queue or actor
 * @param pausedAt when it was first paused (database clock)
 * @param pausedBy who paused it, as the caller said, or {@code null}
 * @param reason why, as the caller said, or {@code null}
 */
public record Pause(
    PauseTarget target, Instant pausedAt, @Nullable String pausedBy, @Nullable String reason) {}
