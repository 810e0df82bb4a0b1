-- Maintenance leadership (M1, D8, O6). Used by io.taskq.postgres.internal.leader.
--
-- The leader key K is the bigint key of 'taskq:maintenance_leader:{schema}' (see
-- io.taskq.core.internal.AdvisoryLockName). pg_locks shows a bigint key as classid = high 32 bits,
-- objid = low 32 bits, objsubid = 1. The fence is the same 64 bits in PostgreSQL's other advisory
-- key space, the (int4, int4) pair, which pg_locks shows with objsubid = 2: a lock of its own,
-- derived from the leader key. Why it exists is explained in LeaderFence.

-- name: try_lock
-- D8: the session lock, on the dedicated connection only; never called while already held
-- (session locks stack, and one unlock would then not release it).
-- Binds: K.
SELECT pg_try_advisory_lock(?) AS acquired, pg_backend_pid() AS pid;

-- name: idle_limit
-- R7: a session setting of the dedicated connection, set when it is opened. A leader proves the
-- lock every check interval, so its session is never idle for long; a leader whose process is
-- frozen (SIGSTOP, a suspended VM, a stuck JVM) keeps its session open, because its kernel still
-- answers TCP, and with it the lock and every leader-only sweep. idle_session_timeout (PostgreSQL
-- 14 and newer; skipped on 13) makes the server end such a session, which releases the lock to the
-- next process that tries; the frozen leader, thawed, finds its connection gone and steps down.
-- Binds: the limit in milliseconds, as text.
SELECT CASE WHEN current_setting('server_version_num')::integer >= 140000
            THEN set_config('idle_session_timeout', ?, false) END AS idle_limit;

-- name: holds_lock
-- D8: the per-loop proof that this session still holds K. A terminated backend or a lost
-- connection makes this statement fail, which is equally a step-down.
-- Binds: K's classid and objid (unsigned 32-bit halves, as bigint).
SELECT EXISTS (
  SELECT 1
    FROM pg_catalog.pg_locks l
   WHERE l.locktype = 'advisory'
     AND l.classid::bigint = ?
     AND l.objid::bigint = ?
     AND l.objsubid = 1
     AND l.pid = pg_backend_pid()
     AND l.granted
);

-- name: unlock
-- Voluntary step-down at stop. Binds: K.
SELECT pg_advisory_unlock(?);

-- name: barrier
-- D8: a new leader waits, before its first batch, for every batch a previous leader may still
-- have in flight (each holds the fence shared until it commits or rolls back). Run in its own
-- short transaction under a statement_timeout; the commit releases it at once.
-- Binds: the fence pair (K's high and low 32 bits, as signed int4).
SELECT pg_advisory_xact_lock(?::integer, ?::integer);

-- name: fence
-- D8: the fence of every leader-only batch, inside the batch transaction. First take the fence
-- shared (it never waits: a new leader's barrier holding it exclusively means this process is no
-- longer the leader), THEN prove that the leader's session (by backend pid) still holds K. The
-- CASE fixes that order: checked the other way round, the leader could change between the check
-- and the lock. Held until the batch commits, so a new leader's barrier waits for this batch.
-- Binds, in text order: K's classid and objid (bigint), the leader's backend pid, then the
-- fence pair (int4, int4).
SELECT CASE
         WHEN f.locked THEN EXISTS (
           SELECT 1
             FROM pg_catalog.pg_locks l
            WHERE l.locktype = 'advisory'
              AND l.classid::bigint = ?
              AND l.objid::bigint = ?
              AND l.objsubid = 1
              AND l.pid = ?
              AND l.granted)
         ELSE false
       END AS fenced
  FROM (SELECT pg_try_advisory_xact_lock_shared(?::integer, ?::integer) AS locked OFFSET 0) f;

-- name: own_lock
-- M1/S11: a daily sweep's own lock (taskq:prune:{schema}, taskq:archive_expiry:{schema}), taken
-- transaction-scoped inside each of its batches; false means another process runs it now.
-- Binds: the lock's key.
SELECT pg_try_advisory_xact_lock(?);

-- name: local_timeout
-- B3: bounds the barrier's wait with SET LOCAL semantics (the transaction ends right after).
-- Binds: milliseconds, as text.
SELECT set_config('statement_timeout', ?, true);
