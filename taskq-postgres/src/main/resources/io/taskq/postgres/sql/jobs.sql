-- Looking jobs up and cancelling them (L8). {schema} is the validated, quoted schema (M3).

-- name: find
-- A job is in the hot table or, once pruned (S11), in the archive: two primary-key lookups.
-- locked_by names the lease's holder, so only for a running job: a succeeded job keeps the worker
-- that ran it there (V011) as the record of its attempt, which job_attempt_history reads.
-- R6/L5: a result past its result_expires_at is never returned, though the expired-results sweep
-- (S5) nulls it only on its next tick: the read filters by expiry itself.
SELECT id, actor, queue, status, priority, payload::text, run_at, attempt, max_attempts,
       retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, snoozes, deadline_at,
       CASE WHEN status = 'running' THEN locked_by END AS locked_by, lock_expires_at, cancel_requested_at, unique_key, unique_until, concurrency_key,
       CASE WHEN result_expires_at IS NULL OR result_expires_at > statement_timestamp()
            THEN result::text END AS result,
       result_expires_at, error_class, error_message, error_stack, created_at, started_at,
       finished_at,
       ARRAY(SELECT key FROM jsonb_each_text(labels) ORDER BY key) AS label_keys,
       ARRAY(SELECT value FROM jsonb_each_text(labels) ORDER BY key) AS label_values,
       false AS archived
FROM {schema}.jobs
WHERE id = ?
UNION ALL
SELECT id, actor, queue, status, priority, payload::text, run_at, attempt, max_attempts,
       retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, snoozes, deadline_at,
       CASE WHEN status = 'running' THEN locked_by END AS locked_by, lock_expires_at, cancel_requested_at, unique_key, unique_until, concurrency_key,
       CASE WHEN result_expires_at IS NULL OR result_expires_at > statement_timestamp()
            THEN result::text END AS result,
       result_expires_at, error_class, error_message, error_stack, created_at, started_at,
       finished_at,
       ARRAY(SELECT key FROM jsonb_each_text(labels) ORDER BY key),
       ARRAY(SELECT value FROM jsonb_each_text(labels) ORDER BY key),
       true
FROM {schema}.jobs_archive
WHERE id = ?
LIMIT 1

-- name: cancel
-- L8: one statement on the job row. Under READ COMMITTED the UPDATE re-reads a row another
-- transaction changed meanwhile, so the CASE arms see the latest status:
--   scheduled / pending -> cancelled now (finished_at stamped);
--   running             -> cancel_requested_at stamped; the worker ends it. A running job whose
--                          cancel was already requested is left alone (no row here: the caller
--                          reads its status), so the first request keeps its time and author,
--                          as a second pause keeps the first's.
-- B6/L1: the job_events row is written by the same statement, so it commits with the change and
-- never alone: 'cancelled' for a job cancelled now, 'cancel_requested' for a running one (the
-- 'cancelled' event its worker writes when the handler stops follows). A3: the note names who
-- asked ('cancelled by <by>', 'cancel requested by <by>'); none when the caller named no one.
-- B4: written times come from clock_timestamp().
-- L8: a running job's owner is told at once: one pg_notify on its worker channel
-- (taskq_worker_{tag}_{locked_by}, M2), sent on commit of this same statement, so the handler sees
-- the request without waiting for the next heartbeat. The payload is the job id only (D11).
-- Binds: the job id, who cancels (stripped, or NULL), the worker channel prefix
-- (taskq_worker_{tag}_), the wake channel (L9 hook).
-- Result: one row (the job's new status) when the statement changed the job, none otherwise.
WITH changed AS (
  UPDATE {schema}.jobs
  SET status = CASE WHEN status = 'running' THEN status ELSE 'cancelled' END,
      finished_at = CASE WHEN status = 'running' THEN finished_at ELSE clock_timestamp() END,
      cancel_requested_at = CASE WHEN status = 'running'
                                 THEN clock_timestamp()
                                 ELSE cancel_requested_at END
  WHERE id = ?
    AND (status IN ('scheduled', 'pending')
         OR (status = 'running' AND cancel_requested_at IS NULL))
  RETURNING id, status, actor, queue, attempt, finished_at, cancel_requested_at, locked_by,
            batch_id, ?::text AS cancelled_by
),
event AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, occurred_at, note)
  SELECT id,
         CASE WHEN status = 'cancelled' THEN 'cancelled' ELSE 'cancel_requested' END,
         actor, queue, attempt,
         CASE WHEN status = 'cancelled' THEN finished_at ELSE cancel_requested_at END,
         CASE WHEN status = 'cancelled' THEN 'cancelled by ' ELSE 'cancel requested by ' END
           || cancelled_by
  FROM changed
),
notified AS (
  -- An aggregate always yields one row, so joining it keeps the result and forces the NOTIFY.
  SELECT count(pg_notify(?::text || locked_by, id::text)) AS sent
  FROM changed
  WHERE status = 'running' AND locked_by IS NOT NULL
),
-- L9: a cancelled batch member counts towards its batch (V004's settle_batch_members, after the
-- job row is locked); the last one completes the batch and enqueues its hook.
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status), ?::text)
              ELSE 0 END AS completed
    FROM changed
   WHERE batch_id IS NOT NULL AND status = 'cancelled'
)
SELECT status FROM changed CROSS JOIN notified CROSS JOIN settled

-- name: status
-- After a cancel that changed nothing: is the job running (its cancel already requested),
-- terminal, or unknown?
SELECT status FROM {schema}.jobs WHERE id = ?
UNION ALL
SELECT status FROM {schema}.jobs_archive WHERE id = ?
LIMIT 1
