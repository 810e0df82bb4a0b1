-- Bulk operations (S13, F1-F4, B1-B6). Used by io.taskq.postgres.internal.bulk.
-- {schema} is the validated, quoted schema (M3); everything else is bound.

-- name: cancel_where
-- S13/F1/B1: ONE statement per committed batch of a bulk cancel: a LIMIT-ed window, the locking
-- re-check, the driving UPDATE, one batched job_events INSERT, the worker NOTIFYs of running jobs
-- and the batch side of cancelled members (L9), all in the batch's one transaction (B6).
-- Binds: batch size, highest id, statuses text[] (a subset of scheduled / pending / running),
-- actors text[] (NULL: any), queues text[] (NULL: any), labels jsonb (NULL: any; else the job's
-- labels must contain it), older-than in microseconds (NULL: any age), worker channel prefix
-- (taskq_worker_{tag}_), wake channel, who asked (stripped; NULL: no one named).
WITH params AS MATERIALIZED (
  SELECT ?::integer AS batch_size, ?::bigint AS max_id, ?::text[] AS statuses,
         ?::text[] AS actors, ?::text[] AS queues, ?::jsonb AS labels, ?::bigint AS older_than_us,
         ?::text AS worker_prefix, ?::text AS wake_channel, ?::text AS asked_by
),
-- F2: the window. Up to batch size matching rows, read without locks; its size (not the rows the
-- UPDATE affects) tells the caller whether more may remain. One arm per status, each with the
-- status as a literal so the partial status indexes serve it; an arm whose status the filter does
-- not ask for is switched off by a one-time filter (the scalar subquery on params). Rows above the
-- id the operation started with are never matched, so a steady stream of new matching jobs cannot
-- keep the drain running forever. A running job whose cancel was already requested is done.
-- The arms run in order (pending, scheduled, running) until the window is full: pending jobs
-- first, since those are the ones workers are about to start.
-- B4: the age bound uses statement_timestamp().
win AS MATERIALIZED (
  SELECT a.id
    FROM (
      (SELECT j.id
         FROM {schema}.jobs j CROSS JOIN params p
        WHERE (SELECT 'pending' = ANY (statuses) FROM params)
          AND j.status = 'pending'
          AND j.id <= p.max_id
          AND (p.actors IS NULL OR j.actor = ANY (p.actors))
          AND (p.queues IS NULL OR j.queue = ANY (p.queues))
          AND (p.labels IS NULL OR j.labels @> p.labels)
          AND (p.older_than_us IS NULL
               OR j.created_at < statement_timestamp() - p.older_than_us * interval '1 microsecond')
        LIMIT (SELECT batch_size FROM params))
      UNION ALL
      (SELECT j.id
         FROM {schema}.jobs j CROSS JOIN params p
        WHERE (SELECT 'scheduled' = ANY (statuses) FROM params)
          AND j.status = 'scheduled'
          AND j.id <= p.max_id
          AND (p.actors IS NULL OR j.actor = ANY (p.actors))
          AND (p.queues IS NULL OR j.queue = ANY (p.queues))
          AND (p.labels IS NULL OR j.labels @> p.labels)
          AND (p.older_than_us IS NULL
               OR j.created_at < statement_timestamp() - p.older_than_us * interval '1 microsecond')
        LIMIT (SELECT batch_size FROM params))
      UNION ALL
      (SELECT j.id
         FROM {schema}.jobs j CROSS JOIN params p
        WHERE (SELECT 'running' = ANY (statuses) FROM params)
          AND j.status = 'running'
          AND j.cancel_requested_at IS NULL
          AND j.id <= p.max_id
          AND (p.actors IS NULL OR j.actor = ANY (p.actors))
          AND (p.queues IS NULL OR j.queue = ANY (p.queues))
          AND (p.labels IS NULL OR j.labels @> p.labels)
          AND (p.older_than_us IS NULL
               OR j.created_at < statement_timestamp() - p.older_than_us * interval '1 microsecond')
        LIMIT (SELECT batch_size FROM params))
    ) a
   LIMIT (SELECT batch_size FROM params)
),
-- F1: the window's rows are locked in id order (the order every other multi-row writer locks
-- in, so a bulk cancel and a completion do not deadlock on each other's rows) and the status is
-- re-checked on the newest version under the lock (READ COMMITTED): a job a worker claimed, or
-- that finished, since the window was read drops out here. Blocking FOR UPDATE, not SKIP LOCKED:
-- a row briefly held by a claim is waited for, then re-checked, never skipped while it matches.
locked AS MATERIALIZED (
  SELECT j.id
    FROM {schema}.jobs j CROSS JOIN params p
   WHERE j.id IN (SELECT id FROM win)
     AND j.status = ANY (p.statuses)
     AND (j.status <> 'running' OR j.cancel_requested_at IS NULL)
   ORDER BY j.id
     FOR UPDATE OF j
),
-- L8: scheduled / pending -> cancelled now; running -> cancel requested (the worker ends it).
-- B4: written timestamps use clock_timestamp().
changed AS (
  UPDATE {schema}.jobs j
     SET status = CASE WHEN j.status = 'running' THEN j.status ELSE 'cancelled' END,
         finished_at = CASE WHEN j.status = 'running' THEN j.finished_at ELSE clock_timestamp() END,
         cancel_requested_at = CASE WHEN j.status = 'running'
                                    THEN clock_timestamp() ELSE j.cancel_requested_at END
    FROM locked l
   WHERE j.id = l.id
  RETURNING j.id, j.status, j.actor, j.queue, j.attempt, j.locked_by, j.batch_id
),
-- B4: one evaluation instant for the batch's events...
stamp AS MATERIALIZED (
  SELECT clock_timestamp() AS at
),
-- B1/B6: one batched job_events INSERT for the batch, committed with it: 'cancelled' for a job
-- cancelled now, 'cancel_requested' for a running one (the 'cancelled' event its worker writes when
-- the handler stops follows), as a single cancel writes them. A3: the note names who asked
-- ('cancelled by <by> (bulk cancel)', 'cancel requested by <by> (bulk cancel)'; 'bulk cancel'
-- when no one was named). B4: ...plus the microsecond ladder on the row ordinal.
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, note,
                                   occurred_at)
  SELECT c.id,
         CASE WHEN c.status = 'cancelled' THEN 'cancelled' ELSE 'cancel_requested' END,
         c.actor, c.queue, c.attempt,
         CASE WHEN c.status = 'cancelled' THEN 'cancelled' END,
         COALESCE(CASE WHEN c.status = 'cancelled' THEN 'cancelled by ' ELSE 'cancel requested by ' END
                    || p.asked_by || ' (bulk cancel)',
                  'bulk cancel'),
         s.at + (row_number() OVER (ORDER BY c.id) - 1) * interval '1 microsecond'
    FROM changed c
   CROSS JOIN stamp s
   CROSS JOIN params p
   ORDER BY c.id
),
-- L8: each running job's owner is told at once on its worker channel (payload: the job id, D11).
notified AS (
  SELECT count(pg_notify((SELECT worker_prefix FROM params) || c.locked_by, c.id::text)) AS sent
    FROM changed c
   WHERE c.status = 'running' AND c.locked_by IS NOT NULL
),
-- L9: cancelled batch members count towards their batch (V004's settle_batch_members, after the
-- job rows are locked).
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(c.batch_id), array_agg(c.status),
                                                 (SELECT wake_channel FROM params))
              ELSE 0 END AS completed
    FROM changed c
   WHERE c.batch_id IS NOT NULL AND c.status = 'cancelled'
)
-- One row: the window size (F2), the rows cancelled, the cancel requests, the batches completed.
SELECT (SELECT count(*) FROM win) AS window_rows,
       count(*) FILTER (WHERE c.status = 'cancelled') AS cancelled,
       count(*) FILTER (WHERE c.status = 'running') AS cancel_requested,
       (SELECT completed FROM settled) AS batches_completed,
       (SELECT sent FROM notified) AS notified
  FROM changed c

-- name: max_job_id
-- F1: the highest job id when an operation starts; jobs enqueued later are not its business.
SELECT COALESCE(max(id), 0) FROM {schema}.jobs

-- name: running_jobs_of_actor
-- F4: force-deregistration refuses up front while the actor has running jobs.
-- Binds: actor.
SELECT count(*) FROM {schema}.jobs WHERE actor = ? AND status = 'running'

-- name: open_jobs_of_actor
-- Plain deregistration refuses while the actor has any open job.
-- Binds: actor.
SELECT count(*) FROM {schema}.jobs
 WHERE actor = ? AND status IN ('scheduled', 'pending', 'running')

-- name: cron_table
-- F4: does the schema have cron schedules (a later migration adds them)? Binds: the qualified,
-- quoted table name, as text.
SELECT to_regclass(?) IS NOT NULL

-- name: disable_schedules
-- F4: the actor's enabled cron schedules stop firing (V003's cron_schedules, found by its actor
-- index). Prepared only when cron_table said the table exists. Binds: actor.
UPDATE {schema}.cron_schedules
   SET enabled = false, updated_at = clock_timestamp()
 WHERE actor = ? AND enabled

-- name: deregister_actor
-- F4: the closing small transaction of a deregistration: delete the actor_config row, count the
-- actor's terminal history (hot table and archive), and, when asked, purge the concurrency-limit
-- slots of the actor (its actor cap and its keyed caps) and of its queue (the queue's only when no
-- other registered actor serves it; held slots are never touched).
-- Binds: actor, purge boolean.
WITH params AS MATERIALIZED (
  SELECT ?::text AS actor, ?::boolean AS purge
),
config AS (
  DELETE FROM {schema}.actor_config a
   USING params p
   WHERE a.actor = p.actor
  RETURNING a.queue
),
purged AS (
  DELETE FROM {schema}.reservation_slots s
   USING params p
   WHERE p.purge
     AND s.job_id IS NULL
     AND ((s.scope_kind = 'actor' AND s.scope_name = p.actor)
          -- keyed caps of the actor are named {actor}:{key} (V002's comment on the table)
          OR (s.scope_kind = 'key' AND left(s.scope_name, length(p.actor) + 1) = p.actor || ':')
          OR (s.scope_kind = 'queue'
              AND s.scope_name IN (SELECT queue FROM config)
              AND NOT EXISTS (
                    SELECT 1 FROM {schema}.actor_config o
                     WHERE o.queue = s.scope_name AND o.actor <> p.actor)))
  RETURNING s.id
)
SELECT (SELECT count(*) FROM config) AS config_deleted,
       (SELECT queue FROM config) AS queue,
       (SELECT count(*) FROM {schema}.jobs j, params p
         WHERE j.actor = p.actor AND j.status IN ('succeeded', 'failed', 'crashed', 'cancelled'))
       + (SELECT count(*) FROM {schema}.jobs_archive a, params p WHERE a.actor = p.actor)
         AS terminal_history,
       (SELECT count(*) FROM purged) AS slots_purged
