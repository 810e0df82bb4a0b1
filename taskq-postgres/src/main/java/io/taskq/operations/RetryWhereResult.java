package io.taskq.operations;

import java.time.Duration;

/**
 * What {@link Operations#retryWhere(JobFilter)} did (A3).
 *
 * @param retried jobs made pending again
 * @param batches the committed batches
 * @param deadlockRetries batch attempts retried after a deadlock (F3)
 * @param elapsed how long it took
 */
public record RetryWhereResult(long retried, int batches, int deadlockRetries, Duration elapsed) {}
