-- Dispatch (L4, D9): claiming due pending jobs. Used by io.taskq.postgres.internal.dispatch.JobClaimer.

-- name: claim
-- L4: one statement claims a batch. The MATERIALIZED CTE locks the chosen rows once
-- (FOR UPDATE SKIP LOCKED, so concurrent claimers never wait on or share a row) in the
-- deterministic (priority, run_at, id) order of jobs_claim_idx. B4: select on
-- statement_timestamp(), write clock_timestamp(). D9: each claim draws a fresh lease token
-- that every later write of this attempt matches on.
-- Binds: worker id, queues text[], actors text[], limit, lease period ms.
WITH picked AS MATERIALIZED (
  SELECT id
    FROM {schema}.jobs
   WHERE status = 'pending'
     AND run_at <= statement_timestamp()
     AND queue = ANY (?::text[])
     AND actor = ANY (?::text[])
     -- A4: never a paused queue's or actor's job, whatever the worker's view of the pauses
     -- (V007's paused table, read by this statement's snapshot; hashed, once per statement).
     AND queue NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'queue')
     AND actor NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'actor')
     AND NOT EXISTS (SELECT 1 FROM {schema}.paused WHERE kind = 'queue' AND name = '*')
   ORDER BY priority, run_at, id
   LIMIT ?
     FOR UPDATE SKIP LOCKED
)
UPDATE {schema}.jobs j
   SET status          = 'running',
       attempt         = j.attempt + 1,
       locked_by       = ?,
       lock_expires_at = clock_timestamp() + ? * interval '1 millisecond',
       lease_token     = nextval('{schema}.lease_token_seq'),
       started_at      = clock_timestamp()
  FROM picked
 WHERE j.id = picked.id
RETURNING j.id, j.actor, j.queue, j.priority, j.run_at, j.payload::text AS payload, j.attempt,
          j.max_attempts, j.lease_token, j.deadline_at, j.cancel_requested_at IS NOT NULL AS cancel_requested,
          j.started_at;
