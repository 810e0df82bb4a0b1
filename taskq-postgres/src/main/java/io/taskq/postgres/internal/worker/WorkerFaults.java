package io.taskq.postgres.internal.worker;

import io.taskq.postgres.internal.FaultSeam;

/**
 * The fault seams of one worker (test-only, born disarmed, Q1): each sits at the top of a real
 * loop's database step.
 *
 * @param claim the dispatcher's claim statement
 * @param complete the completer's batch write
 * @param heartbeat the heartbeat statement
 * @param listen the wake listener's connect and liveness probe
 */
public record WorkerFaults(
    FaultSeam claim, FaultSeam complete, FaultSeam heartbeat, FaultSeam listen) {
  static WorkerFaults disarmed() {
    return new WorkerFaults(
        new FaultSeam("claim"),
        new FaultSeam("complete"),
        new FaultSeam("heartbeat"),
        new FaultSeam("listen"));
  }
}
