-- The lean success path (X2): recording a batch whose every outcome is a success.
-- Used by io.taskq.postgres.internal.completion.CompletionWriter; any batch with another outcome
-- takes `complete` (completion.sql), which this statement agrees with row for row except where
-- said below.

-- name: complete_succeeded
-- L1/B6: one statement, one transaction: each job's transition and, for the rare job whose cancel
-- was requested while it ran (L8: it ends 'cancelled' whatever its handler did), its job_attempts
-- and job_events rows, as `complete` writes them.
-- X2: what a success does not need, it does not do:
--   * No locking step before the write. `complete` locks its rows first because it decides each
--     job's next status from the row (attempts left, retry policy); a success decides nothing but
--     the cancel, read by the UPDATE itself. The UPDATE locks each row as it writes it, and D9's
--     fence (still 'running', under this attempt's lease token) is its WHERE clause: under READ
--     COMMITTED a row another transaction changed meanwhile is re-checked on its newest version, so
--     an attempt whose lease was taken over affects nothing and is missing from the result.
--     L4: the writer sends the ids sorted and the rows are found by `id = ANY (array)` on the
--     primary key (an InitPlan array, a constant of the index scan: X1, never a join over jobs,
--     never a running-state index: see the fence below), so they are locked in id order, the
--     order heartbeat and release lock in.
--   * No job_attempts row for a success (V011): the job row in 'succeeded' is the record of its
--     last attempt (attempt, started_at, finished_at) and keeps locked_by, the worker that ran it;
--     job_attempt_history shows it as the attempt. That row and its three index entries were about
--     a third of a processed job's WAL.
--   * No job_events row: a success never had one (the cancelled job has, as in `complete`).
-- L7: reservation slots are freed with the transition (D9: under the attempt's token), slot rows
-- after job rows, as in `complete`; for a job without slots this finds nothing and writes nothing.
-- X2: the writer says whether any job of the batch may hold slots (only a capped claim hands
-- them out, with the attempt's new token); when none does, the step is a false one-time filter
-- and never runs, so the batch pays no probe of reservation_slots_job_idx per job.
-- L9: batch members are settled as in `complete` (skipped when no job of the batch has a batch).
-- L5: the result is stored until now + result TTL; a TTL of 0 stores none. B4: clock_timestamp().
-- Binds: result TTL ms, worker id, then ids bigint[] (ascending), tokens bigint[], results text[];
-- whether any job of the batch may hold slots; last, the wake channel (a batch hook's wake).
WITH params AS (
  SELECT ?::bigint AS result_ttl_ms, ?::text AS worker_id
),
input AS (
  SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS t(id, token, result)
),
done AS (
  UPDATE {schema}.jobs j
     SET status            = CASE WHEN j.cancel_requested_at IS NULL THEN 'succeeded'
                                  ELSE 'cancelled' END,
         result            = CASE WHEN j.cancel_requested_at IS NULL AND p.result_ttl_ms > 0
                                  THEN i.result::jsonb END,
         result_expires_at = CASE WHEN j.cancel_requested_at IS NULL AND p.result_ttl_ms > 0
                                       AND i.result IS NOT NULL
                                  THEN clock_timestamp() + p.result_ttl_ms * interval '1 millisecond' END,
         locked_by         = CASE WHEN j.cancel_requested_at IS NULL THEN j.locked_by END,
         lock_expires_at   = NULL,
         finished_at       = clock_timestamp()
    FROM input i
   CROSS JOIN params p
   WHERE j.id = ANY ((SELECT array_agg(id) FROM input)::bigint[])
     AND j.id = i.id
     AND j.lease_token = i.token
     -- D9's status fence as a CASE on purpose: a plain `j.status = 'running'` lets the planner
     -- reach the rows through a running-state partial index (jobs_running_idx) and filter
     -- that by id, reading every running job for each batch (statistics taken before a burst of
     -- claims see almost none running): measured 3x slower beside 100 000 finished jobs. The CASE
     -- implies no index predicate, so the rows are found by primary key only (X1).
     AND CASE WHEN j.status = 'running' THEN true ELSE false END
  RETURNING j.id, j.status, j.attempt, j.actor, j.queue, j.started_at, j.batch_id, i.token,
            p.worker_id
),
slots_freed AS (
  UPDATE {schema}.reservation_slots s
     SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL,
         last_used_at = clock_timestamp()
    FROM done
   WHERE ?::boolean
     AND s.job_id = done.id
     AND s.lease_token = done.token
),
attempts AS (
  INSERT INTO {schema}.job_attempts (job_id, attempt, worker_id, outcome, started_at, finished_at)
  SELECT id, attempt, (SELECT w.id FROM {schema}.workers w WHERE w.id = done.worker_id),
         'cancelled', started_at, clock_timestamp()
    FROM done
   WHERE status = 'cancelled'
),
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, occurred_at)
  SELECT id, 'cancelled', actor, queue, attempt, 'cancelled',
         clock_timestamp() + (row_number() OVER (ORDER BY id) - 1) * interval '1 microsecond'
    FROM done
   WHERE status = 'cancelled'
),
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status), ?::text)
              ELSE 0 END AS completed
    FROM done
   WHERE batch_id IS NOT NULL
)
SELECT id, status, 0::bigint AS retry_in_ms FROM done CROSS JOIN settled;
