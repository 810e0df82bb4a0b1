package io.taskq.operations;

/**
 * How far {@link Operations#retryWhere(JobFilter, RetryWhereListener)} got: reported after every
 * committed batch, and carried by a {@link RetryWhereException}. Counts are of committed work only.
 *
 * @param batches the batches committed so far
 * @param retried jobs made pending again so far
 * @param lastWindow matching rows the last batch looked at; one smaller than the batch size ends
 *     the drain (F2)
 * @param deadlockRetries batch attempts that deadlocked and were retried (F3)
 */
public record RetryWhereProgress(int batches, long retried, int lastWindow, int deadlockRetries) {}
