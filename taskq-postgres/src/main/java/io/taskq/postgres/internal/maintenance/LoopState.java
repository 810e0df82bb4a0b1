package io.taskq.postgres.internal.maintenance;

/** Whether the maintenance loops should keep going; a drain checks it between batches. */
@FunctionalInterface
interface LoopState {
  boolean isRunning();
}
