package io.taskq.bulk;

/**
 * How far a bulk operation got (D16): reported after every committed batch, and carried by a {@link
 * BulkOperationException} when the operation stops on an error. Every count is of committed work
 * only: a batch that rolled back (a deadlock retried, a timeout) contributes nothing.
 *
 * @param operation {@code cancel_where} or {@code deregister_actor}
 * @param batches the batches committed so far
 * @param cancelled jobs that became {@code cancelled}
 * @param cancelRequested running jobs that got a cancel request
 * @param lastWindow the matching rows the last committed batch looked at; a window smaller than the
 *     batch size ends the drain (F2)
 * @param deadlockRetries batch attempts that ended in a deadlock and were retried (F3)
 */
public record BulkProgress(
    String operation,
    int batches,
    long cancelled,
    long cancelRequested,
    int lastWindow,
    int deadlockRetries) {}
