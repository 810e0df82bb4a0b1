package io.taskq.postgres.internal.feed;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One {@code kind = 'reclaimed'} row of {@code job_events}, as the poll statement reads it. */
public record FeedRow(
    FeedPosition position,
    long jobId,
    String actor,
    String queue,
    int attempt,
    @Nullable String disposition,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    Instant occurredAt) {}
