-- Dispatch (L4, D9): claiming due pending jobs. Used by io.taskq.postgres.internal.dispatch.JobClaimer.

-- name: claim
-- L4/X1: one statement claims a batch. claim_pick (V008) locks the chosen rows (FOR UPDATE SKIP
-- LOCKED, so concurrent claimers never wait on or share a row): at most `limit` due jobs of the
-- given queues and actors in (priority, run_at, id) order, one range of jobs_claim_queue_idx per
-- (queue, actor), so pending jobs of other queues and finished jobs are never read. The UPDATE
-- finds exactly those ids by primary key (the InitPlan makes the array a constant of the scan):
-- no join over jobs, whatever the planner thinks of the batch's size. B4: select on
-- statement_timestamp(), write clock_timestamp(). D9: each claim draws a fresh lease token that
-- every later write of this attempt matches on.
-- Binds: queues text[], actors text[], limit, worker id, lease period ms.
WITH picked AS MATERIALIZED (
  SELECT {schema}.claim_pick(?::text[], ?::text[], ?::integer) AS ids
)
UPDATE {schema}.jobs j
   SET status          = 'running',
       attempt         = j.attempt + 1,
       locked_by       = ?,
       lock_expires_at = clock_timestamp() + ? * interval '1 millisecond',
       lease_token     = nextval('{schema}.lease_token_seq'),
       started_at      = clock_timestamp()
 WHERE j.id = ANY ((SELECT ids FROM picked)::bigint[])
RETURNING j.id, j.actor, j.queue, j.priority, j.run_at, j.payload::text AS payload, j.attempt,
          j.max_attempts, j.lease_token, j.deadline_at, j.cancel_requested_at IS NOT NULL AS cancel_requested,
          j.started_at,
          -- A6: the job's own per-attempt timeout, NULL (read as 0) for the actor's.
          j.attempt_timeout_ms,
          -- P6: the labels (trace context among them), read only for a job that has some.
          CASE WHEN j.labels = '{}'::jsonb THEN NULL ELSE ARRAY(SELECT key FROM jsonb_each_text(j.labels)) END AS label_keys,
          CASE WHEN j.labels = '{}'::jsonb THEN NULL ELSE ARRAY(SELECT value FROM jsonb_each_text(j.labels)) END AS label_values;
