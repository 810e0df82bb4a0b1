package io.taskq.bulk;

import io.taskq.JobsClient;

/** What {@link JobsClient#cancel(long)} did (L8). */
public enum CancelResult {
  /** The job was {@code scheduled} or {@code pending} and is now {@code cancelled}. */
  CANCELLED,
  /**
   * The job is {@code running}: a cancel request is stamped that its handler can observe (or was
   * already, by an earlier call); the worker ends the job {@code cancelled} (so does a lease
   * reclaim, S1).
   */
  CANCEL_REQUESTED,
  /** The job had already reached a terminal status; nothing changed. */
  ALREADY_FINISHED,
  /** No job has this id in this schema. */
  NOT_FOUND
}
