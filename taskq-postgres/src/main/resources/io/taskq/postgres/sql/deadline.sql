-- S2 sweep_deadline_exceeded. Used by io.taskq.postgres.internal.sweep.DeadlineSweep.

-- name: sweep_deadline_exceeded
-- S2/B1: ONE statement per batch: the LIMIT-ed snap, the driving UPDATE, one batched
-- job_attempts INSERT and one batched job_events INSERT (B6: same transaction).
-- Binds: batch size, wake channel (L9: a completed batch's hook).
WITH params AS MATERIALIZED (
  SELECT ?::integer AS batch_size, ?::text AS wake_channel
),
-- S2: jobs not yet terminal whose schedule_to_close deadline passed.
-- B4: select on statement_timestamp() (jobs_deadline_idx). U2: FOR UPDATE SKIP LOCKED.
overdue AS MATERIALIZED (
  SELECT j.id, j.status AS was, j.locked_by, j.started_at
    FROM {schema}.jobs j
   WHERE j.deadline_at < statement_timestamp()
     AND j.status IN ('scheduled', 'pending', 'running')
   ORDER BY j.deadline_at
   LIMIT (SELECT batch_size FROM params)
     FOR UPDATE OF j SKIP LOCKED
),
-- S2: terminal 'failed' with error_class 'DeadlineExceeded', whatever the attempts left; a
-- running attempt loses its lease (its handler's late completion matches nothing, D9).
-- B4: written timestamps use clock_timestamp().
failed AS (
  UPDATE {schema}.jobs j
     SET status          = 'failed',
         error_class     = 'DeadlineExceeded',
         error_message   = 'the job passed its schedule_to_close deadline',
         error_stack     = NULL,
         finished_at     = clock_timestamp(),
         locked_by       = NULL,
         lock_expires_at = NULL
    FROM overdue o
   WHERE j.id = o.id
     AND j.status IN ('scheduled', 'pending', 'running')
  RETURNING j.id, j.actor, j.queue, j.error_class, j.error_message, o.locked_by, o.started_at,
            -- The attempt the deadline ended: the running one, else the next one, which never
            -- starts (so no two attempt rows of a job share a number).
            CASE WHEN o.was = 'running' THEN j.attempt ELSE j.attempt + 1 END AS attempt,
            o.was, j.batch_id
),
-- S2/B1: one batched job_attempts INSERT.
attempts AS (
  INSERT INTO {schema}.job_attempts
         (job_id, attempt, worker_id, outcome, error_class, error_message, started_at, finished_at)
  SELECT f.id, f.attempt, w.id, 'deadline_exceeded', f.error_class, f.error_message,
         CASE WHEN f.was = 'running' THEN f.started_at END, clock_timestamp()
    FROM failed f
    LEFT JOIN {schema}.workers w ON w.id = f.locked_by AND f.was = 'running'
),
-- B4: one evaluation instant for the batch's events...
stamp AS MATERIALIZED (
  SELECT clock_timestamp() AS at
),
-- S2/B1: one batched job_events INSERT. B4: ...plus the microsecond ladder on the ordinal.
events AS (
  INSERT INTO {schema}.job_events
         (job_id, kind, actor, queue, attempt, disposition, error_class, error_message, occurred_at)
  SELECT f.id, 'deadline_exceeded', f.actor, f.queue, f.attempt, 'failed', f.error_class,
         f.error_message,
         s.at + (row_number() OVER (ORDER BY f.id) - 1) * interval '1 microsecond'
    FROM failed f
   CROSS JOIN stamp s
   ORDER BY f.id
),
-- L9: failed batch members count towards their batch (V004's settle_batch_members, after the
-- job rows are locked); the last one completes the batch and enqueues its hook.
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(f.batch_id), array_agg('failed'::text),
                                                 (SELECT wake_channel FROM params))
              ELSE 0 END AS completed
    FROM failed f
   WHERE f.batch_id IS NOT NULL
)
SELECT count(*) AS failed FROM failed CROSS JOIN settled;
