-- S3 scheduled_to_pending. Used by io.taskq.postgres.internal.sweep.ScheduledPromotionSweep.

-- name: scheduled_to_pending
-- S3: ONE statement per tick: promote due scheduled jobs to pending, then one wake NOTIFY when
-- any moved. No job_events rows: promotion is scheduler bookkeeping, and a row per promotion
-- would grow without bound under a sustained admission-denial loop.
-- Binds: batch size, wake channel.
WITH params AS MATERIALIZED (
  SELECT ?::integer AS batch_size, ?::text AS wake_channel
),
-- B4: select on statement_timestamp() (jobs_scheduled_idx). U2: FOR UPDATE SKIP LOCKED.
due AS MATERIALIZED (
  SELECT j.id
    FROM {schema}.jobs j
   WHERE j.status = 'scheduled'
     AND j.run_at <= statement_timestamp()
   ORDER BY j.run_at
   LIMIT (SELECT batch_size FROM params)
     FOR UPDATE OF j SKIP LOCKED
),
promoted AS (
  UPDATE {schema}.jobs j
     SET status = 'pending'
    FROM due d
   WHERE j.id = d.id
     AND j.status = 'scheduled'
  RETURNING j.id
)
-- S3/D11: one wake NOTIFY (empty payload) when rows moved; the scalar subquery runs once.
SELECT count(*) AS promoted,
       (SELECT count(pg_notify(p.wake_channel, ''))
          FROM params p
         WHERE EXISTS (SELECT 1 FROM promoted)) AS woken
  FROM promoted;
