-- Running jobs in the caller's thread (P5: inline mode and drain, docs/testing.md).
-- Used by io.taskq.postgres.internal.execution.InlineRunner.

-- name: claim_one
-- Claims one job by id for an attempt run in the caller's thread, whatever its run_at: inline mode
-- and a drain that includes scheduled jobs do not wait out a schedule or a retry backoff. The
-- row is claimed like claim.sql claims (D9: a fresh lease token every later write matches on;
-- B4: written times from clock_timestamp()); a job that is not scheduled or pending (a worker took
-- it, it finished, it was cancelled) is not claimed and the statement returns no row.
-- Binds: worker id, lease period ms, job id, the actors this process runs text[].
WITH params AS (
  SELECT ?::text AS worker_id, ?::bigint AS lease_ms, ?::bigint AS job_id, ?::text[] AS actors
)
UPDATE {schema}.jobs j
   SET status          = 'running',
       attempt         = j.attempt + 1,
       locked_by       = p.worker_id,
       lock_expires_at = clock_timestamp() + p.lease_ms * interval '1 millisecond',
       lease_token     = nextval('{schema}.lease_token_seq'),
       started_at      = clock_timestamp()
  FROM params p
 WHERE j.id = p.job_id
   AND j.status IN ('scheduled', 'pending')
   AND j.actor = ANY (p.actors)
RETURNING j.id, j.actor, j.queue, j.priority, j.run_at, j.payload::text AS payload, j.attempt,
          j.max_attempts, j.lease_token, j.deadline_at, j.cancel_requested_at IS NOT NULL AS cancel_requested,
          j.started_at,
          -- A6: the job's own per-attempt timeout, NULL (read as 0) for the actor's.
          j.attempt_timeout_ms,
          -- P6: the labels (trace context among them), read only for a job that has some.
          CASE WHEN j.labels = '{}'::jsonb THEN NULL ELSE ARRAY(SELECT key FROM jsonb_each_text(j.labels)) END AS label_keys,
          CASE WHEN j.labels = '{}'::jsonb THEN NULL ELSE ARRAY(SELECT value FROM jsonb_each_text(j.labels)) END AS label_values;

-- name: due
-- The jobs a drain runs next, in claim order (priority, run_at, id), of the given actors: the due
-- pending ones, and with the flag set also the scheduled ones and those waiting out a retry
-- backoff. B4: selects on statement_timestamp().
-- Binds: actors text[], include scheduled boolean, limit.
WITH params AS (
  SELECT ?::text[] AS actors, ?::boolean AS include_scheduled, ?::integer AS row_limit
)
SELECT j.id
  FROM {schema}.jobs j, params p
 WHERE j.actor = ANY (p.actors)
   AND (   (j.status = 'pending' AND j.run_at <= statement_timestamp())
        OR (p.include_scheduled AND j.status IN ('pending', 'scheduled')))
 ORDER BY j.priority, j.run_at, j.id
 LIMIT (SELECT row_limit FROM params);

-- name: status
-- A5: the status a handler's snooze or discard left the job in (its own statement recorded it).
SELECT status FROM {schema}.jobs WHERE id = ?
