package io.taskq.operations;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One finished attempt of a job (A2): a handler run, a lease reclaim, a deadline, a timeout.
 *
 * @param errorClass the error class, else {@code null}
 * @param errorMessage the error message, else {@code null}
 * @param startedAt when the attempt started
 * @param finishedAt when it finished
 * @param attempt the attempt's number, from 1
 * @param outcome {@code succeeded}, {@code failed}, {@code cancelled}, {@code reclaimed}, ...
 * @param workerId the worker that ran it, {@code null} once that worker's row was cleaned up
 * @param errorStack the sanitised stack trace, or {@code null}
 */
public record AttemptRecord(
    int attempt,
    String outcome,
    @Nullable String workerId,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    @Nullable String errorStack,
    @Nullable Instant startedAt,
    Instant finishedAt) {}
