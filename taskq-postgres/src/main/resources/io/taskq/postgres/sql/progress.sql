-- Job progress in PostgreSQL (M5, D14): the latest report of each job in job_progress (V006).
-- Used by io.taskq.progress.PostgresProgressStore. {schema} is the validated, quoted schema (M3).

-- name: report_fenced
-- A running handler's report. D9: only under the attempt's lease token and only while the job is
-- 'running', so an attempt that lost its lease can no longer overwrite its successor's progress.
-- Returns one row when the report was stored.
-- Binds: fraction, message, detail, job id, lease token.
INSERT INTO {schema}.job_progress AS p (job_id, fraction, message, detail, reported_at)
SELECT j.id, ?, ?, ?, clock_timestamp()
  FROM {schema}.jobs j
 WHERE j.id = ?
   AND j.lease_token = ?
   AND j.status = 'running'
ON CONFLICT (job_id) DO UPDATE
   SET fraction    = excluded.fraction,
       message     = excluded.message,
       detail      = excluded.detail,
       reported_at = excluded.reported_at
RETURNING p.job_id

-- name: report
-- A report without a lease token (the Redis store's fallback, or application code): stored only
-- while the job is 'running'. Returns one row when the report was stored.
-- Binds: fraction, message, detail, job id.
INSERT INTO {schema}.job_progress AS p (job_id, fraction, message, detail, reported_at)
SELECT j.id, ?, ?, ?, clock_timestamp()
  FROM {schema}.jobs j
 WHERE j.id = ?
   AND j.status = 'running'
ON CONFLICT (job_id) DO UPDATE
   SET fraction    = excluded.fraction,
       message     = excluded.message,
       detail      = excluded.detail,
       reported_at = excluded.reported_at
RETURNING p.job_id

-- name: latest
-- Binds: job id.
SELECT job_id, fraction, message, detail, reported_at
  FROM {schema}.job_progress
 WHERE job_id = ?

-- name: since
-- Polling subscribers: the reports at or after an instant, oldest first (job_progress_reported_idx).
-- Binds: instant, row limit.
SELECT job_id, fraction, message, detail, reported_at
  FROM {schema}.job_progress
 WHERE reported_at >= ?
 ORDER BY reported_at, job_id
 LIMIT ?

-- name: now
SELECT clock_timestamp()
