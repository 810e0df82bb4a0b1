-- S1 reclaim_expired_locks. Used by io.taskq.postgres.internal.sweep.LeaseReclaimSweep.

-- name: reclaim_expired_locks
-- S1/B1: ONE statement per batch, whatever its size: two LIMIT-ed arms snap the rows, the driving
-- UPDATE transitions them, one batched job_attempts INSERT and one batched job_events INSERT
-- record them (B6: in the same transaction as the transition), and one pg_notify wakes the
-- workers when anything went back to pending. At most 2 x batch size rows per call.
-- E2/M2: one pg_notify on the events channel tells reclaim watches the batch wrote events.
-- Binds: batch size, worker stale-after ms, max retry backoff ms, wake channel, events channel.
WITH params AS MATERIALIZED (
  SELECT ?::integer AS batch_size, ?::bigint AS stale_after_ms, ?::bigint AS max_backoff_ms,
         ?::text AS wake_channel, ?::text AS events_channel
),
-- S1 lease arm: running jobs whose lease passed, by owner, each owner's oldest lease first: the
-- order of jobs_running_idx (locked_by, lock_expires_at) (V013), so the scan checks the lease on
-- the index entries and stops at the batch; a sort by lease alone would read every expired lease
-- of the backlog first.
-- B4: select on statement_timestamp() (STABLE, so it is a condition of the index scan).
-- U2: FOR UPDATE SKIP LOCKED: a second leader steps over these rows instead of taking them too.
lease_arm AS MATERIALIZED (
  SELECT j.id, j.locked_by, j.started_at, 'LeaseExpired'::text AS error_class
    FROM {schema}.jobs j
   WHERE j.status = 'running'
     AND j.lock_expires_at < statement_timestamp()
   ORDER BY j.locked_by, j.lock_expires_at
   LIMIT (SELECT batch_size FROM params)
     FOR UPDATE OF j SKIP LOCKED
),
-- S1 heartbeat arm: running jobs whose owner stopped heartbeating for worker_stale_after, or
-- whose owner's row is gone. Driven from the owners, never from the jobs: lost_owners walks the
-- distinct locked_by values of running jobs with a skip scan of jobs_running_idx (one index
-- probe per owner, however many jobs each holds) and keeps the owners with no fresh workers row;
-- the arm then reads at most batch size of their jobs through the same index. A scan over all
-- running jobs (anti-joined with workers) would cost the whole backlog on every batch.
lost_owners AS MATERIALIZED (
  WITH RECURSIVE owner(locked_by) AS (
    (SELECT j.locked_by
       FROM {schema}.jobs j
      WHERE j.status = 'running'
      ORDER BY j.locked_by
      LIMIT 1)
    UNION ALL
    SELECT (SELECT j.locked_by
              FROM {schema}.jobs j
             WHERE j.status = 'running'
               AND j.locked_by > o.locked_by
             ORDER BY j.locked_by
             LIMIT 1)
      FROM owner o
     WHERE o.locked_by IS NOT NULL
  )
  SELECT o.locked_by
    FROM owner o
   WHERE o.locked_by IS NOT NULL
     AND NOT EXISTS (
           SELECT 1
             FROM {schema}.workers w
            WHERE w.id = o.locked_by
              AND w.heartbeat_at >= statement_timestamp()
                                    - (SELECT stale_after_ms FROM params) * interval '1 millisecond')
),
-- Rows the lease arm took are excluded (we hold their locks already). In the order of
-- jobs_running_idx (locked_by, lock_expires_at), so the index scan stops at the LIMIT without a
-- sort (a sort would read every job of the lost owners first), and a plan that reads the table
-- instead is never the cheaper; SKIP LOCKED never waits, so the order rows are locked in cannot
-- take part in a deadlock.
heartbeat_arm AS MATERIALIZED (
  SELECT j.id, j.locked_by, j.started_at, 'WorkerLost'::text AS error_class
    FROM {schema}.jobs j
   WHERE j.status = 'running'
     AND j.locked_by = ANY (ARRAY(SELECT locked_by FROM lost_owners))
     AND j.id <> ALL (ARRAY(SELECT id FROM lease_arm))
   ORDER BY j.locked_by, j.lock_expires_at
   LIMIT (SELECT batch_size FROM params)
     FOR UPDATE OF j SKIP LOCKED
),
picked AS (
  SELECT * FROM lease_arm
  UNION ALL
  SELECT * FROM heartbeat_arm
),
-- S1 dispositions, decided from the locked row itself: a cancel in flight ends 'cancelled' (L8);
-- attempts left -> 'pending', rescheduled through the job's OWN stamped retry policy capped by
-- max_retry_backoff (L3; retry_delay mirrors io.taskq.RetryPolicy); otherwise 'crashed'.
-- B4: written timestamps use clock_timestamp(). The lease fields are cleared; the lease token is
-- kept, so the old owner's late writes still miss (D9: they match on status 'running' too).
reclaimed AS (
  UPDATE {schema}.jobs j
     SET status          = CASE WHEN j.cancel_requested_at IS NOT NULL THEN 'cancelled'
                                WHEN j.attempt < j.max_attempts THEN 'pending'
                                ELSE 'crashed' END,
         run_at          = CASE WHEN j.cancel_requested_at IS NULL AND j.attempt < j.max_attempts
                                THEN clock_timestamp()
                                     + {schema}.retry_delay(j.retry_backoff, j.retry_base_ms,
                                                            j.retry_cap_ms, j.retry_jitter,
                                                            j.attempt, p.max_backoff_ms, random())
                                ELSE j.run_at END,
         finished_at     = CASE WHEN j.cancel_requested_at IS NULL AND j.attempt < j.max_attempts
                                THEN NULL ELSE clock_timestamp() END,
         error_class     = k.error_class,
         error_message   = CASE k.error_class
                                WHEN 'LeaseExpired' THEN 'the lease expired before the attempt finished'
                                ELSE 'the worker holding the job stopped heartbeating' END,
         error_stack     = NULL,
         locked_by       = NULL,
         lock_expires_at = NULL
    FROM picked k, params p
   WHERE j.id = k.id
     -- The picked ids as an array: the rows are found through jobs_pkey, whatever the planner
     -- guesses of the CTE's size (a join on the CTE alone may hash all of jobs).
     AND j.id = ANY (ARRAY(SELECT id FROM picked))
     AND j.status = 'running'
  RETURNING j.id, j.status, j.attempt, j.actor, j.queue, j.error_class, j.error_message,
            k.locked_by, k.started_at, j.batch_id, j.lease_token,
            CASE j.status WHEN 'pending' THEN 'repended'
                          WHEN 'crashed' THEN 'crashed'
                          WHEN 'cancelled' THEN 'cancelled'
                          ELSE 'unknown' END AS disposition
),
-- L7: the reclaimed attempts' reservation slots are freed now rather than when their lease
-- passes (S4), so a worker lost by heartbeat gives its slots back at once. D9: under the token.
slots_freed AS (
  UPDATE {schema}.reservation_slots s
     SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL
    FROM reclaimed r
   WHERE s.job_id = r.id
     AND s.lease_token = r.lease_token
),
-- S1/B1: one batched job_attempts INSERT; the outcome is the disposition. A worker row that is
-- gone leaves worker_id NULL (the foreign key would refuse it).
attempts AS (
  INSERT INTO {schema}.job_attempts
         (job_id, attempt, worker_id, outcome, error_class, error_message, started_at, finished_at)
  SELECT r.id, r.attempt, w.id, r.disposition, r.error_class, r.error_message, r.started_at,
         clock_timestamp()
    FROM reclaimed r
    LEFT JOIN {schema}.workers w ON w.id = r.locked_by
),
-- B4: one evaluation instant for the batch's events...
stamp AS MATERIALIZED (
  SELECT clock_timestamp() AS at
),
-- S1/B1: one batched job_events INSERT (kind 'reclaimed', the crash-reclaim feed's slice).
-- B4: ...plus a microsecond ladder on the row ordinal, so the batch's occurred_at values are
-- distinct and ascend with event_id (rows are inserted in ordinal order).
events AS (
  INSERT INTO {schema}.job_events
         (job_id, kind, actor, queue, attempt, disposition, error_class, error_message, occurred_at)
  SELECT r.id, 'reclaimed', r.actor, r.queue, r.attempt, r.disposition, r.error_class,
         r.error_message,
         s.at + (row_number() OVER (ORDER BY r.id) - 1) * interval '1 microsecond'
    FROM reclaimed r
   CROSS JOIN stamp s
   ORDER BY r.id
),
counts AS (
  SELECT r.actor, r.disposition, count(*) AS n
    FROM reclaimed r
   GROUP BY r.actor, r.disposition
),
-- L9: reclaimed batch members that ended 'crashed' or 'cancelled' count towards their batch
-- (V004's settle_batch_members, after the job rows are locked); the last one completes the batch
-- and enqueues its hook, woken on the wake channel.
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(r.batch_id), array_agg(r.status),
                                                 (SELECT wake_channel FROM params))
              ELSE 0 END AS completed
    FROM reclaimed r
   WHERE r.batch_id IS NOT NULL AND r.status IN ('crashed', 'cancelled')
)
-- O5: the batch's taskq.jobs.reclaimed{actor, disposition} increments.
-- S1/D11: one wake NOTIFY when anything went back to pending (an uncorrelated scalar subquery is
-- evaluated once; identical notifications of a transaction are folded anyway), empty payload.
SELECT c.actor, c.disposition, c.n,
       (SELECT count(pg_notify(p.wake_channel, ''))
          FROM params p
         WHERE EXISTS (SELECT 1 FROM reclaimed r WHERE r.status = 'pending')) AS woken,
-- E2/M2/B1: one events NOTIFY per batch that wrote reclaim events (counts is empty otherwise, so
-- this uncorrelated subquery runs once or not at all), delivered at commit, empty payload.
       (SELECT count(pg_notify(p.events_channel, '')) FROM params p) AS announced
  FROM counts c
 CROSS JOIN settled;
