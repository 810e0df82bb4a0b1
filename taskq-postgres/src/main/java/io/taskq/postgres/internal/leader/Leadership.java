package io.taskq.postgres.internal.leader;

import io.taskq.core.internal.AdvisoryLockName;

/**
 * Proof of one term of leadership: the leader lock and the backend pid of the session that holds
 * it. Batches carry it into their {@link LeaderFence}, which checks in {@code pg_locks} that this
 * very session still holds the lock.
 *
 * @param lock the leader lock, {@code taskq:maintenance_leader:{schema}}
 * @param backendPid {@code pg_backend_pid()} of the dedicated connection that acquired it
 */
public record Leadership(AdvisoryLockName lock, int backendPid) {
  /** {@code pg_locks.classid} of the lock's bigint key: its high 32 bits, unsigned. */
  long classId() {
    return lock.key() >>> 32;
  }

  /** {@code pg_locks.objid} of the lock's bigint key: its low 32 bits, unsigned. */
  long objId() {
    return lock.key() & 0xFFFF_FFFFL;
  }

  /** The fence's first int4: the key's high 32 bits, signed. */
  int fenceHigh() {
    return fenceHigh(lock);
  }

  /** The fence's second int4: the key's low 32 bits, signed. */
  int fenceLow() {
    return fenceLow(lock);
  }

  static int fenceHigh(AdvisoryLockName lock) {
    return (int) (lock.key() >>> 32);
  }

  static int fenceLow(AdvisoryLockName lock) {
    return (int) lock.key();
  }
}
