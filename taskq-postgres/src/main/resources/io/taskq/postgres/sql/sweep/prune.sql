-- S11 prune: terminal jobs move to jobs_archive. {schema} is the validated, quoted schema (M3).

-- name: try_lock
-- M1: the transaction-scoped advisory lock taskq:prune:{schema}; a second pruner of the same
-- schema gets false and skips the batch. Released by the batch's COMMIT or ROLLBACK.
-- Binds: the lock key.
SELECT pg_try_advisory_xact_lock(?)

-- name: archive_finished_jobs
-- S11: move at most batch-size terminal jobs that finished before now - pruneAfter into
-- jobs_archive, every column intact, in one statement (DELETE ... RETURNING feeding the INSERT).
-- No job_events rows. The jobs' progress rows (job_progress, V006) are deleted in the same
-- statement. The column list must name every jobs column: a migration adding a column to
-- jobs adds it to jobs_archive and here (a test compares the two tables' columns).
-- B4: select on statement_timestamp(), archived_at from clock_timestamp(). U2: SKIP LOCKED.
-- Binds: pruneAfter in microseconds, batch size.
WITH finished AS (
  SELECT id
    FROM {schema}.jobs
   WHERE status IN ('succeeded', 'failed', 'crashed', 'cancelled')
     AND finished_at < statement_timestamp() - (? * interval '1 microsecond')
   ORDER BY finished_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
),
moved AS (
  DELETE FROM {schema}.jobs j
   USING finished
   WHERE j.id = finished.id
  RETURNING j.id, j.actor, j.queue, j.status, j.priority, j.payload, j.labels, j.run_at,
            j.attempt, j.max_attempts, j.retry_backoff, j.retry_base_ms, j.retry_cap_ms,
            j.retry_jitter, j.deadline_at, j.locked_by, j.lock_expires_at, j.lease_token,
            j.cancel_requested_at, j.unique_key, j.unique_until, j.result, j.result_expires_at,
            j.error_class, j.error_message, j.error_stack, j.batch_id, j.concurrency_key, j.created_at,
            j.started_at, j.finished_at, j.snoozes, j.attempt_timeout_ms
),
progress_gone AS (
  DELETE FROM {schema}.job_progress p USING moved WHERE p.job_id = moved.id
)
INSERT INTO {schema}.jobs_archive
  (id, actor, queue, status, priority, payload, labels, run_at,
   attempt, max_attempts, retry_backoff, retry_base_ms, retry_cap_ms,
   retry_jitter, deadline_at, locked_by, lock_expires_at, lease_token,
   cancel_requested_at, unique_key, unique_until, result, result_expires_at,
   error_class, error_message, error_stack, batch_id, concurrency_key, created_at,
   started_at, finished_at, snoozes, attempt_timeout_ms, archived_at)
SELECT id, actor, queue, status, priority, payload, labels, run_at,
       attempt, max_attempts, retry_backoff, retry_base_ms, retry_cap_ms,
       retry_jitter, deadline_at, locked_by, lock_expires_at, lease_token,
       cancel_requested_at, unique_key, unique_until, result, result_expires_at,
       error_class, error_message, error_stack, batch_id, concurrency_key, created_at,
       started_at, finished_at, snoozes, attempt_timeout_ms, clock_timestamp()
  FROM moved
