-- Leases (L4, L10, L11, D9): the heartbeat that keeps a worker's leases alive, and the release
-- of leases at shutdown. Used by io.taskq.postgres.internal.lease.

-- name: heartbeat
-- L10/L4: one statement per tick, not one per job. It refreshes the worker row (re-creating it
-- if a stale-worker sweep removed it during a long pause) and renews the lease of every job the
-- worker holds. D9: a lease is renewed only under the token this worker claimed it with, so a
-- job reclaimed and re-claimed elsewhere is never extended by its old owner. The returned rows
-- are the leases still held, each with its cancel flag (L8): a job missing from the result has
-- been taken away from this worker.
-- Binds: worker id, hostname, pid, queues text[], concurrency (the row); ids bigint[] and
-- tokens bigint[] (the leases held); lease period ms; worker id.
WITH me AS (
  INSERT INTO {schema}.workers AS w (id, hostname, pid, queues, concurrency)
  VALUES (?, ?, ?, ?::text[], ?)
  ON CONFLICT (id) DO UPDATE SET heartbeat_at = clock_timestamp()
  RETURNING w.id
),
held AS (
  SELECT * FROM unnest(?::bigint[], ?::bigint[]) AS t(id, token)
),
-- L4: the rows are locked in job id order before any is written. Every statement that changes
-- many jobs rows at once (this one, release, complete) locks them in that one order, so two of
-- them over overlapping ids wait for each other instead of deadlocking (40P01). The S1 sweep
-- locks with SKIP LOCKED, which never waits.
-- The jobs side carries no restriction (status, owner): with statistics that lag behind a burst
-- of claims, a restriction makes the planner expect one row there and loop over the whole array
-- for each held job (quadratic in the jobs held). Unrestricted, jobs is looked up by primary key
-- once per held job; status and owner are read from the locked row, and the UPDATE needs no
-- restriction either, as the rows are locked.
locked AS MATERIALIZED (
  SELECT j.id, j.status = 'running' AND j.locked_by = (SELECT id FROM me) AS mine
    FROM {schema}.jobs j
    JOIN held ON held.id = j.id AND held.token = j.lease_token
   WHERE j.id = ANY ((SELECT array_agg(id) FROM held)::bigint[])
   ORDER BY j.id
     FOR UPDATE OF j
),
-- X1: jobs is read by primary key only, `id = ANY (array)` with the array an InitPlan (a constant
-- of the index scan), here and in the lock above: never a join over a scan of jobs.
renewed AS (
  UPDATE {schema}.jobs j
     SET lock_expires_at = clock_timestamp() + ? * interval '1 millisecond'
   WHERE j.id = ANY ((SELECT array_agg(id) FROM locked WHERE mine)::bigint[])
     AND j.locked_by = ?
  RETURNING j.id, j.lease_token, j.lock_expires_at,
            j.cancel_requested_at IS NOT NULL AS cancel_requested
),
-- L7/D9: the reservation slots a renewed job holds keep the job's lease (same token, same expiry)
-- and are stamped used (S9's idleness clock). Slot rows are locked after the job rows.
slots AS (
  UPDATE {schema}.reservation_slots s
     SET lease_expires_at = r.lock_expires_at,
         last_used_at     = clock_timestamp()
    FROM renewed r
   WHERE s.job_id = r.id
     AND s.lease_token = r.lease_token
)
SELECT id, lease_token, cancel_requested FROM renewed;

-- name: release
-- L11: graceful shutdown hands the jobs whose handlers outlived the grace period back at once,
-- instead of leaving them to the lease sweep. Releasing is not the job's fault, so it does not
-- use up an attempt: the attempt counter goes back by one (the job_attempts row says
-- 'released'). A job with a cancel in flight ends 'cancelled' instead (L8).
-- D9: only under this worker's lease token, and only while still 'running'.
-- B6: the attempt and event rows commit with the transition.
-- Binds: worker id, ids bigint[], tokens bigint[], the wake channel (L9 hook).
WITH params AS (
  SELECT ?::text AS worker_id
),
held AS (
  SELECT * FROM unnest(?::bigint[], ?::bigint[]) AS t(id, token)
),
-- L4: locked in job id order first, like heartbeat and complete (no deadlock between them); no
-- restriction on the jobs side, for the reason given at heartbeat.
locked AS MATERIALIZED (
  SELECT j.id, j.status = 'running' AS live
    FROM {schema}.jobs j
    JOIN held ON held.id = j.id AND held.token = j.lease_token
   WHERE j.id = ANY ((SELECT array_agg(id) FROM held)::bigint[])
   ORDER BY j.id
     FOR UPDATE OF j
),
released AS (
  UPDATE {schema}.jobs j
     SET status          = CASE WHEN j.cancel_requested_at IS NULL THEN 'pending' ELSE 'cancelled' END,
         attempt         = CASE WHEN j.cancel_requested_at IS NULL THEN j.attempt - 1 ELSE j.attempt END,
         run_at          = CASE WHEN j.cancel_requested_at IS NULL THEN clock_timestamp() ELSE j.run_at END,
         finished_at     = CASE WHEN j.cancel_requested_at IS NULL THEN NULL ELSE clock_timestamp() END,
         locked_by       = NULL,
         lock_expires_at = NULL
   WHERE j.id = ANY ((SELECT array_agg(id) FROM locked WHERE live)::bigint[])
  RETURNING j.id, j.lease_token, j.status, j.actor, j.queue, j.started_at, j.batch_id,
            CASE WHEN j.status = 'pending' THEN j.attempt + 1 ELSE j.attempt END AS attempt
),
-- L7: the released jobs' reservation slots are freed in the same statement (D9: under the token).
slots_freed AS (
  UPDATE {schema}.reservation_slots s
     SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL,
         last_used_at = clock_timestamp()
    FROM released r
   WHERE s.job_id = r.id
     AND s.lease_token = r.lease_token
),
attempts AS (
  INSERT INTO {schema}.job_attempts (job_id, attempt, worker_id, outcome, started_at, finished_at)
  SELECT r.id, r.attempt, (SELECT w.id FROM {schema}.workers w, params p WHERE w.id = p.worker_id),
         CASE r.status WHEN 'pending' THEN 'released' ELSE 'cancelled' END,
         r.started_at, clock_timestamp()
    FROM released r
),
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, occurred_at)
  SELECT id, CASE status WHEN 'pending' THEN 'released' ELSE 'cancelled' END,
         actor, queue, attempt, status,
         clock_timestamp() + (row_number() OVER (ORDER BY id) - 1) * interval '1 microsecond'
    FROM released
),
-- L9: a released job that ended 'cancelled' counts towards its batch (V004's
-- settle_batch_members, after the job rows are locked).
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status), ?::text)
              ELSE 0 END AS completed
    FROM released
   WHERE batch_id IS NOT NULL AND status = 'cancelled'
)
SELECT id, lease_token, status FROM released CROSS JOIN settled;

-- name: wake
-- D11: wake every worker of the schema after jobs were handed back; the payload is empty and
-- PostgreSQL folds identical notifications of one transaction into one.
SELECT pg_notify(?, '');
