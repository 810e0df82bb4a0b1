-- Outcomes (L1, L3, L5, B6, D9): recording what the handlers of a batch of attempts did.
-- Used by io.taskq.postgres.internal.completion.CompletionWriter.

-- name: complete
-- L1/B6: one statement records a batch of outcomes: each job's transition, its job_attempts row
-- and, for every outcome but success, its job_events row, all in one transaction.
-- D9: a row changes only while it is still 'running' under the lease token of this attempt;
-- an attempt whose lease was taken over affects nothing and is missing from the result.
-- L8: a job whose cancel was requested ends 'cancelled', whatever its handler did.
-- L3: a failure with attempts left goes back to 'pending' after the job's OWN stamped policy,
-- computed by retry_delay (capped by max_retry_backoff), exactly like the reclaim sweep (S1);
-- unless it is not retryable (the handler threw NonRetryableException): that one fails for good.
-- L5: a success stores its result until now + result TTL; a TTL of 0 stores none.
-- B4: written timestamps use clock_timestamp(); the events carry a microsecond ladder.
-- L4: the rows are locked in job id order (ORDER BY under FOR UPDATE: the sort comes before the
-- locks), the one order heartbeat and release lock in too, so none of them can deadlock another.
-- The jobs side of the locking join carries no restriction (status is read from the locked row,
-- 'live'): see heartbeat in lease.sql for why.
-- X1: jobs is read by primary key only. The lock finds the batch with `id = ANY (array)` (the
-- array an InitPlan, a constant of the index scan); the planner then expects a handful of locked
-- rows, so the UPDATE joins them to jobs by a primary-key probe per row, never a hash join over a
-- scan of jobs, whatever the batch's size and the table's.
-- Binds: result TTL ms, max retry backoff ms, worker id, then the batch as parallel arrays:
-- ids bigint[], tokens bigint[], succeeded boolean[], results text[], error classes text[],
-- messages text[], stacks text[], retryable boolean[]; last, the wake channel (L9: a batch hook's
-- wake).
WITH params AS (
  SELECT ?::bigint AS result_ttl_ms, ?::bigint AS max_backoff_ms, ?::text AS worker_id
),
input AS (
  SELECT *
    FROM unnest(?::bigint[], ?::bigint[], ?::boolean[], ?::text[], ?::text[], ?::text[], ?::text[],
                ?::boolean[])
         AS t(id, token, succeeded, result, error_class, error_message, error_stack, retryable)
),
decided AS MATERIALIZED (
  SELECT i.*, p.*, j.attempt, j.actor, j.queue, j.started_at, j.status = 'running' AS live,
         CASE
           WHEN j.cancel_requested_at IS NOT NULL THEN 'cancelled'
           WHEN i.succeeded THEN 'succeeded'
           WHEN j.attempt < j.max_attempts AND i.retryable THEN 'pending'
           ELSE 'failed'
         END AS next_status,
         CASE
           WHEN j.cancel_requested_at IS NULL AND NOT i.succeeded AND j.attempt < j.max_attempts
                AND i.retryable
           THEN {schema}.retry_delay(j.retry_backoff, j.retry_base_ms, j.retry_cap_ms,
                                     j.retry_jitter, j.attempt, p.max_backoff_ms, random())
         END AS retry_in
    FROM {schema}.jobs j
    JOIN input i ON i.id = j.id AND i.token = j.lease_token
   CROSS JOIN params p
   WHERE j.id = ANY ((SELECT array_agg(id) FROM input)::bigint[])
   ORDER BY j.id
     FOR UPDATE OF j
),
done AS (
  UPDATE {schema}.jobs j
     SET status            = d.next_status,
         run_at            = CASE WHEN d.next_status = 'pending'
                                  THEN clock_timestamp() + d.retry_in ELSE j.run_at END,
         result            = CASE WHEN d.next_status = 'succeeded' AND d.result_ttl_ms > 0
                                  THEN d.result::jsonb END,
         result_expires_at = CASE WHEN d.next_status = 'succeeded' AND d.result_ttl_ms > 0
                                       AND d.result IS NOT NULL
                                  THEN clock_timestamp() + d.result_ttl_ms * interval '1 millisecond' END,
         error_class       = COALESCE(d.error_class, j.error_class),
         error_message     = CASE WHEN d.error_class IS NULL THEN j.error_message ELSE d.error_message END,
         error_stack       = CASE WHEN d.error_class IS NULL THEN j.error_stack ELSE d.error_stack END,
         locked_by         = NULL,
         lock_expires_at   = NULL,
         finished_at       = CASE WHEN d.next_status = 'pending' THEN NULL ELSE clock_timestamp() END
    FROM decided d
   WHERE j.id = d.id
     AND d.live
  RETURNING j.id, j.status, d.attempt, d.actor, d.queue, d.started_at, d.succeeded, d.worker_id,
            d.error_class, d.error_message, d.error_stack, j.batch_id, d.token,
            (extract(epoch FROM (j.run_at - clock_timestamp())) * 1000)::bigint AS retry_in_ms
),
-- L7: the attempt's reservation slots are freed with its transition (D9: under its token), slot
-- rows locked after the job rows; last_used_at restarts S9's idleness clock.
slots_freed AS (
  UPDATE {schema}.reservation_slots s
     SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL,
         last_used_at = clock_timestamp()
    FROM done
   WHERE s.job_id = done.id
     AND s.lease_token = done.token
),
attempts AS (
  INSERT INTO {schema}.job_attempts
         (job_id, attempt, worker_id, outcome, error_class, error_message, error_stack, started_at, finished_at)
  SELECT id, attempt, (SELECT w.id FROM {schema}.workers w WHERE w.id = done.worker_id),
         CASE WHEN status = 'cancelled' THEN 'cancelled'
              WHEN succeeded THEN 'succeeded' ELSE 'failed' END,
         error_class, error_message, error_stack, started_at, clock_timestamp()
    FROM done
),
events AS (
  INSERT INTO {schema}.job_events
         (job_id, kind, actor, queue, attempt, disposition, error_class, error_message, occurred_at)
  SELECT id,
         CASE status WHEN 'pending' THEN 'retried' ELSE status END,
         actor, queue, attempt, status, error_class, error_message,
         clock_timestamp() + (row_number() OVER (ORDER BY id) - 1) * interval '1 microsecond'
    FROM done
   WHERE status <> 'succeeded'
),
-- L9: the batch side of the members this statement finished, after their job rows are locked
-- (V004's settle_batch_members locks the batch rows in id order and enqueues a completed batch's
-- hook exactly once). Skipped (CASE) when no finished row is a batch member. The aggregate always
-- yields one row, so joining it keeps the result and forces the call.
-- Binds: the wake channel, for a hook job.
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status), ?::text)
              ELSE 0 END AS completed
    FROM done
   WHERE batch_id IS NOT NULL AND status <> 'pending'
)
SELECT id, status, retry_in_ms FROM done CROSS JOIN settled;
