-- A rate-limited actor's job waits (M5, D14). Used by
-- io.taskq.postgres.internal.execution.RateLimitWait. {schema} is the validated, quoted schema.

-- name: defer
-- The worker claimed the job but its actor's rate limit refused a permit: the job goes back to
-- 'pending', due after the limiter's retry-after (the claim takes only due jobs, as for a retry),
-- and the claim's attempt is given back, since the handler never ran. No job_attempts row (no
-- attempt took place) and no job_events row (R6): under a sustained limit a row per refusal would
-- grow without bound (246 rows for 76 jobs in 4 s, kept for the event retention period), as a row
-- per promotion would (guide §1, sweep 3); the worker counts the wait in the taskq.jobs.rate_limited
-- meter instead. A job with a cancel in flight ends 'cancelled' instead (L8), with its attempt and
-- event rows as on release.
-- D9: only under this attempt's lease token, and only while still 'running'.
-- Binds: worker id, retry-after µs, job id, lease token.
WITH params AS (
  SELECT ?::text AS worker_id, ?::bigint AS wait_us
),
deferred AS (
  UPDATE {schema}.jobs j
     SET status          = CASE WHEN j.cancel_requested_at IS NULL THEN 'pending' ELSE 'cancelled' END,
         attempt         = CASE WHEN j.cancel_requested_at IS NULL THEN j.attempt - 1 ELSE j.attempt END,
         run_at          = CASE WHEN j.cancel_requested_at IS NULL
                                THEN clock_timestamp() + p.wait_us * interval '1 microsecond'
                                ELSE j.run_at END,
         finished_at     = CASE WHEN j.cancel_requested_at IS NULL THEN NULL ELSE clock_timestamp() END,
         locked_by       = NULL,
         lock_expires_at = NULL
    FROM params p
   WHERE j.id = ?
     AND j.lease_token = ?
     AND j.status = 'running'
  RETURNING j.id, j.lease_token, j.status, j.actor, j.queue, j.started_at,
            CASE WHEN j.status = 'pending' THEN j.attempt + 1 ELSE j.attempt END AS attempt
),
attempts AS (
  INSERT INTO {schema}.job_attempts (job_id, attempt, worker_id, outcome, started_at, finished_at)
  SELECT d.id, d.attempt, (SELECT w.id FROM {schema}.workers w, params p WHERE w.id = p.worker_id),
         'cancelled', d.started_at, clock_timestamp()
    FROM deferred d
   WHERE d.status = 'cancelled'
),
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, occurred_at)
  SELECT id, 'cancelled', actor, queue, attempt, status, clock_timestamp()
    FROM deferred
   WHERE status = 'cancelled'
)
SELECT id, lease_token, status FROM deferred
