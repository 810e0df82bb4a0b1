-- Concurrency caps (L7, S10, D9): claiming under reservation slots, and the per-worker drain of
-- evicted keyed reservations. Used by io.taskq.postgres.internal.caps. {schema} is the validated,
-- quoted schema (M3).
--
-- A worker with caps claims in ONE transaction of three statements: claim_candidates locks the
-- due jobs it may take, acquire_slots locks (creating on demand) free slots of the scopes they
-- need, claim_chosen makes the jobs that got every slot they need 'running' and hands them the
-- slots under the job's lease token. Jobs that got none stay 'pending', untouched (no attempt
-- used); their row locks end with the transaction. Locks are taken job rows first, slot rows
-- after, like every other statement that touches both (heartbeat, completion, release, S1, S2).

-- name: claim_candidates
-- L7/L4: due pending jobs of the worker's queues and actors in (priority, run_at, id) order,
-- FOR UPDATE SKIP LOCKED, skipping jobs whose queue, actor or key scope is full right now (held
-- slots under a live lease >= cap): a full scope never blocks the jobs behind its own, and a
-- skipped row is never locked (the filter runs below the lock). The check is a hint; the slots
-- acquired next are what enforce the caps. B4: statement_timestamp() for every comparison.
-- Binds: capped queues text[], their caps int[]; capped actors text[], their caps int[];
-- actors with a keyed cap text[], their key caps int[]; queues text[], actors text[]; limit (per
-- pair); limit.
WITH queue_cap AS MATERIALIZED (
  SELECT * FROM unnest(?::text[], ?::int[]) AS c(name, cap)
),
actor_cap AS MATERIALIZED (
  SELECT * FROM unnest(?::text[], ?::int[]) AS c(name, cap)
),
key_cap AS MATERIALIZED (
  SELECT * FROM unnest(?::text[], ?::int[]) AS c(actor, cap)
),
-- One probe of reservation_slots_scope_unique per capped queue and actor (never a scan of the
-- keyed rows).
full_scope AS MATERIALIZED (
  SELECT c.kind, c.name
    FROM (SELECT 'queue'::text AS kind, name, cap FROM queue_cap
          UNION ALL
          SELECT 'actor'::text, name, cap FROM actor_cap) c
   WHERE (SELECT count(*)
            FROM {schema}.reservation_slots s
           WHERE s.scope_kind = c.kind
             AND s.scope_name = c.name
             AND s.slot < c.cap
             AND s.job_id IS NOT NULL
             AND s.lease_expires_at >= statement_timestamp()) >= c.cap
)
-- X1: one ordered range of jobs_claim_queue_idx per (queue, actor) asked for, each stopped at the
-- limit, merged in claim order: pending jobs of other queues are never read. A pair whose queue or
-- actor scope is full is not scanned at all. With several pairs, each may lock up to the limit and
-- the merge keeps the first `limit`: the rows left over are released with the transaction, like a
-- candidate that got no slot.
SELECT c.id, c.actor, c.queue, c.concurrency_key
  FROM (SELECT DISTINCT q.queue, a.actor
          FROM unnest(?::text[]) AS q(queue)
         CROSS JOIN unnest(?::text[]) AS a(actor)) p
 CROSS JOIN LATERAL (
       SELECT j.id, j.actor, j.queue, j.concurrency_key, j.priority, j.run_at
         FROM {schema}.jobs j
        WHERE j.status = 'pending'
          AND j.queue = p.queue
          AND j.actor = p.actor
          AND j.run_at <= statement_timestamp()
          AND NOT EXISTS (
                SELECT 1
                  FROM key_cap k
                 WHERE k.actor = j.actor
                   AND j.concurrency_key IS NOT NULL
                   AND (SELECT count(*)
                          FROM {schema}.reservation_slots s
                         WHERE s.scope_kind = 'key'
                           AND s.scope_name = j.actor || ':' || j.concurrency_key
                           AND s.slot < k.cap
                           AND s.job_id IS NOT NULL
                           AND s.lease_expires_at >= statement_timestamp()) >= k.cap)
        ORDER BY j.priority, j.run_at, j.id
        LIMIT ?
          FOR UPDATE OF j SKIP LOCKED) c
 WHERE p.queue NOT IN (SELECT name FROM full_scope WHERE kind = 'queue')
   AND p.actor NOT IN (SELECT name FROM full_scope WHERE kind = 'actor')
   -- A4: never a paused queue's or actor's job (as claim_pick): a paused pair is not scanned.
   AND p.queue NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'queue')
   AND p.actor NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'actor')
   AND NOT EXISTS (SELECT 1 FROM {schema}.paused WHERE kind = 'queue' AND name = '*')
 ORDER BY c.priority, c.run_at, c.id
 LIMIT ?;

-- name: acquire_slots
-- L7: for each scope the candidates need, lock up to `wanted` of its free slots (never held, or
-- held under a lease that passed: a dead holder's slot is taken over at once, S4 only tidies),
-- FOR UPDATE SKIP LOCKED so claimers never wait on each other's slots; and create the missing slot
-- numbers below the cap (on demand, at most the shortfall), in one (scope_kind, scope_name, slot)
-- order, so two claimers creating rows of the same scopes cannot deadlock (ON CONFLICT waits only
-- for a row another claimer is creating). Keyed scopes' rows are marked keyed (S9, S10).
-- Returns every slot row this transaction now holds a lock on; the caller uses what it needs and
-- leaves the rest free. Binds: scope kinds text[], scope names text[], caps int[], wanted int[].
WITH need AS MATERIALIZED (
  SELECT * FROM unnest(?::text[], ?::text[], ?::int[], ?::int[]) AS n(kind, name, cap, wanted)
),
free AS (
  SELECT f.id, f.scope_kind, f.scope_name, f.slot
    FROM need n
   CROSS JOIN LATERAL (
         SELECT s.id, s.scope_kind, s.scope_name, s.slot
           FROM {schema}.reservation_slots s
          WHERE s.scope_kind = n.kind
            AND s.scope_name = n.name
            AND s.slot < n.cap
            AND (s.job_id IS NULL OR s.lease_expires_at < statement_timestamp())
          ORDER BY s.slot
          LIMIT n.wanted
            FOR UPDATE SKIP LOCKED) f
),
shortfall AS MATERIALIZED (
  SELECT n.kind, n.name, n.cap,
         n.wanted - (SELECT count(*)
                       FROM {schema}.reservation_slots s
                      WHERE s.scope_kind = n.kind
                        AND s.scope_name = n.name
                        AND s.slot < n.cap
                        AND (s.job_id IS NULL OR s.lease_expires_at < statement_timestamp())) AS missing
    FROM need n
),
created AS (
  INSERT INTO {schema}.reservation_slots (scope_kind, scope_name, slot, keyed)
  SELECT m.kind, m.name, g.slot, m.kind = 'key'
    FROM shortfall m
   CROSS JOIN LATERAL (
         SELECT g.slot
           FROM generate_series(0, m.cap - 1) AS g(slot)
          WHERE NOT EXISTS (
                  SELECT 1
                    FROM {schema}.reservation_slots s
                   WHERE s.scope_kind = m.kind AND s.scope_name = m.name AND s.slot = g.slot)
          ORDER BY g.slot
          LIMIT greatest(m.missing, 0)) g
   WHERE m.missing > 0
   ORDER BY m.kind, m.name, g.slot
  ON CONFLICT (scope_kind, scope_name, slot) DO NOTHING
  RETURNING id, scope_kind, scope_name, slot
)
SELECT id, scope_kind, scope_name, slot FROM free
UNION ALL
SELECT id, scope_kind, scope_name, slot FROM created;

-- name: claim_chosen
-- L4/D9: the chosen candidates (locked by claim_candidates) become 'running' exactly as the plain
-- claim makes them (owner, lease, fresh token, next attempt, started_at) and returns the same
-- columns (JobClaimer.read), and each acquired slot is handed to
-- its job under the job's lease token and expiry, stamped used (S9's idleness clock); the
-- heartbeat renews both together, completion and release free the slots with the job.
-- Binds: job ids bigint[], worker id, lease period ms, slot ids bigint[], their job ids bigint[].
WITH chosen AS (
  SELECT * FROM unnest(?::bigint[]) AS c(id)
),
claimed AS (
  UPDATE {schema}.jobs j
     SET status          = 'running',
         attempt         = j.attempt + 1,
         locked_by       = ?,
         lock_expires_at = clock_timestamp() + ? * interval '1 millisecond',
         lease_token     = nextval('{schema}.lease_token_seq'),
         started_at      = clock_timestamp()
    FROM chosen c
   WHERE j.id = c.id
     AND j.status = 'pending'
  RETURNING j.id, j.actor, j.queue, j.priority, j.run_at, j.payload::text AS payload, j.attempt,
            j.max_attempts, j.lease_token, j.lock_expires_at, j.deadline_at,
            j.cancel_requested_at IS NOT NULL AS cancel_requested, j.started_at, j.attempt_timeout_ms,
            CASE WHEN j.labels = '{}'::jsonb THEN NULL ELSE ARRAY(SELECT key FROM jsonb_each_text(j.labels)) END AS label_keys,
            CASE WHEN j.labels = '{}'::jsonb THEN NULL ELSE ARRAY(SELECT value FROM jsonb_each_text(j.labels)) END AS label_values
),
assigned AS (
  UPDATE {schema}.reservation_slots s
     SET job_id           = c.id,
         lease_token      = c.lease_token,
         lease_expires_at = c.lock_expires_at,
         last_used_at     = clock_timestamp()
    FROM unnest(?::bigint[], ?::bigint[]) AS a(slot_id, job_id)
    JOIN claimed c ON c.id = a.job_id
   WHERE s.id = a.slot_id
  RETURNING s.id
)
SELECT c.id, c.actor, c.queue, c.priority, c.run_at, c.payload, c.attempt, c.max_attempts,
       c.lease_token, c.deadline_at, c.cancel_requested, c.started_at, c.attempt_timeout_ms, c.label_keys,
       c.label_values, (SELECT count(*) FROM assigned) AS slots_assigned
  FROM claimed c;

-- name: delete_evicted_slots
-- S10: the per-worker reclaim drain deletes the slot rows of the keyed scopes this worker's
-- registry evicted: only rows that are free (or whose holder's lease passed); a held row stays.
-- Deleting a free row is always safe: a claimer that needs the key again creates it on demand, and
-- SKIP LOCKED leaves alone a row a claimer is taking right now. No job_events rows.
-- Returns the rows deleted, and the evicted names that still hold a slot of a job THIS worker runs
-- (a scope evicted while in use): the caller keeps those pending for its next tick, so their rows
-- go once the jobs finish. Keys held by other workers are theirs to drain (or S9's).
-- B4: statement_timestamp(). Binds: keyed scope names text[], worker id, keyed scope names text[].
WITH victim AS (
  SELECT s.id
    FROM {schema}.reservation_slots s
   WHERE s.keyed
     AND s.scope_kind = 'key'
     AND s.scope_name = ANY (?::text[])
     AND (s.job_id IS NULL OR s.lease_expires_at < statement_timestamp())
     FOR UPDATE SKIP LOCKED
),
gone AS (
  DELETE FROM {schema}.reservation_slots s
   USING victim v
   WHERE s.id = v.id
  RETURNING s.id
)
SELECT (SELECT count(*) FROM gone) AS deleted,
       ARRAY(SELECT DISTINCT s.scope_name
               FROM {schema}.reservation_slots s
               JOIN {schema}.jobs j ON j.id = s.job_id AND j.lease_token = s.lease_token
              WHERE j.locked_by = ?
                AND s.scope_kind = 'key'
                AND s.scope_name = ANY (?::text[])
                AND s.lease_expires_at >= statement_timestamp()
              ORDER BY s.scope_name) AS still_held;
