/**
 * Bulk work: enqueue a batch of jobs ({@link io.taskq.bulk.BatchRequest}, {@link
 * io.taskq.bulk.EnqueuedBatch}), follow it ({@link io.taskq.bulk.BatchInfo}, {@link
 * io.taskq.bulk.BulkProgress}) and cancel by filter ({@link io.taskq.bulk.CancelFilter}, {@link
 * io.taskq.bulk.BulkCancelResult}).
 */
@NullMarked
package io.taskq.bulk;

import org.jspecify.annotations.NullMarked;
