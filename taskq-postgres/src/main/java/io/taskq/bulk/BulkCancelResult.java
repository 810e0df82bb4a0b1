package io.taskq.bulk;

import io.taskq.JobsClient;
import java.time.Duration;

/**
 * What {@link JobsClient#cancelWhere(CancelFilter)} did (S13, F1-F3).
 *
 * @param cancelled jobs that became {@code cancelled}
 * @param cancelRequested running jobs that got a cancel request (their workers end them)
 * @param batches the committed batches
 * @param deadlockRetries batch attempts retried after a deadlock
 * @param elapsed how long the operation took
 */
public record BulkCancelResult(
    long cancelled, long cancelRequested, int batches, int deadlockRetries, Duration elapsed) {}
