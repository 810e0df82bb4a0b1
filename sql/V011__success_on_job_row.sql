-- TaskQ schema, version 11: a success is recorded on its job row, not as an attempt row (X2).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- Until now every finished attempt cost a job_attempts row, with its primary key and two more
-- index entries: about 680 of the 2 150 WAL bytes a processed job cost, for a row that repeated
-- what the job row already says once the job has succeeded (its attempt number, started_at,
-- finished_at, and the worker). From this version the success path (complete_succeeded,
-- completion_success.sql) writes no attempt row for a success: the job row in status 'succeeded'
-- is the record of its last attempt, and keeps the worker that ran it in locked_by (a
-- non-running job's locked_by was NULL until now; every reader of the lease reads it only for
-- 'running' jobs, and find() reports it only for those). Failures, retries, reclaims (S1),
-- deadlines (S2), releases, cancels and deferrals keep their job_attempts rows, unchanged.
--
-- job_attempt_history is the whole history, one row per finished attempt: the job_attempts rows,
-- plus for each succeeded job (hot or archived) its success, unless an attempt row records that
-- success already (written by an earlier version, or by a batch that mixed outcomes). Its
-- worker_id reads as job_attempts.worker_id does: NULL once the worker's row is gone (S6, L10).
-- A2's job detail (operations.sql, attempts) reads it; filtered by job_id every arm is an index
-- probe (job_attempts_job_idx, jobs_pkey, jobs_archive_pkey).
CREATE VIEW {schema}.job_attempt_history AS
SELECT a.job_id, a.attempt, a.outcome, a.worker_id, a.error_class, a.error_message,
       a.error_stack, a.started_at, a.finished_at, a.id AS attempt_row
  FROM {schema}.job_attempts a
UNION ALL
SELECT j.id, j.attempt, 'succeeded'::text,
       (SELECT w.id FROM {schema}.workers w WHERE w.id = j.locked_by),
       NULL::text, NULL::text, NULL::text, j.started_at, j.finished_at, NULL::bigint
  FROM {schema}.jobs j
 WHERE j.status = 'succeeded'
   AND NOT EXISTS (SELECT 1
                     FROM {schema}.job_attempts a
                    WHERE a.job_id = j.id AND a.attempt = j.attempt AND a.outcome = 'succeeded')
UNION ALL
SELECT j.id, j.attempt, 'succeeded'::text,
       (SELECT w.id FROM {schema}.workers w WHERE w.id = j.locked_by),
       NULL::text, NULL::text, NULL::text, j.started_at, j.finished_at, NULL::bigint
  FROM {schema}.jobs_archive j
 WHERE j.status = 'succeeded'
   AND NOT EXISTS (SELECT 1
                     FROM {schema}.job_attempts a
                    WHERE a.job_id = j.id AND a.attempt = j.attempt AND a.outcome = 'succeeded');
