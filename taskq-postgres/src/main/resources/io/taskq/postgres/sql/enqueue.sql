-- Enqueue (L2, L6). {schema} is the validated, quoted schema (M3); everything else is bound.

-- name: lock_unique_keys
-- L6/M4: the keyed transaction locks taskq:unique_for:{schema}:{actor}:{identity_key}, one per
-- distinct key, taken in ascending key order (the caller sorts the array; unnest keeps array
-- order) so two batches sharing keys cannot deadlock. Held until the transaction ends: a second
-- enqueuer of the key waits until the first job has committed, then finds it.
SELECT pg_advisory_xact_lock(k) FROM unnest(?::bigint[]) AS u(k)

-- name: insert_jobs
-- L2: the whole batch in one statement: one array per column, unnested WITH ORDINALITY and
--     inserted ORDER BY the ordinal, so identity ids rise in input order (the client relies on it).
-- L4: every time comes from the database clock, read once (clock_timestamp()) for the batch; a job
--     due now or earlier is 'pending', a later one 'scheduled'.
-- L3: the retry policy is stamped into the row.
-- L6: a unique row whose live twin exists (same actor and key, window not over, not cancelled) is
--     not inserted; the twin's id is returned with the row's ordinal. The keyed locks are held
--     already (lock_unique_keys ran in an earlier statement, so this snapshot sees every twin
--     committed before the lock was granted).
-- D11: one wake per distinct queue that got a due job, delivered on commit only; the payload is
--     the queue name, never the job's payload.
-- Result rows: (id, NULL) per inserted job; (twin id, ordinal) per deduplicated row; and one
-- (NULL, NULL) row that makes the wake CTE run.
WITH clock AS (
  SELECT clock_timestamp() AS now
),
req AS (
  SELECT r.ord, r.actor, r.queue, r.priority, r.payload, r.labels, r.max_attempts,
         r.retry_backoff, r.retry_base_ms, r.retry_cap_ms, r.retry_jitter, r.unique_key,
         c.now,
         COALESCE(r.run_at::timestamptz,
                  c.now + COALESCE(r.delay_us, 0) * interval '1 microsecond') AS due,
         c.now + r.deadline_us * interval '1 microsecond' AS deadline_at,
         c.now + r.unique_us * interval '1 microsecond' AS unique_until,
         CASE WHEN r.unique_key IS NULL THEN NULL ELSE (
           SELECT j.id
           FROM {schema}.jobs j
           WHERE j.actor = r.actor
             AND j.unique_key = r.unique_key
             AND j.unique_until > c.now
             AND j.status <> 'cancelled'
           ORDER BY j.id DESC
           LIMIT 1
         ) END AS twin_id
  FROM unnest(?::text[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::text[], ?::bigint[],
              ?::integer[], ?::text[], ?::bigint[], ?::bigint[], ?::float8[], ?::bigint[],
              ?::text[], ?::bigint[])
       WITH ORDINALITY AS r(actor, queue, priority, payload, labels, run_at, delay_us,
                            max_attempts, retry_backoff, retry_base_ms, retry_cap_ms,
                            retry_jitter, deadline_us, unique_key, unique_us, ord)
  CROSS JOIN clock c
),
inserted AS (
  INSERT INTO {schema}.jobs (
    actor, queue, status, priority, payload, labels, run_at, max_attempts,
    retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,
    deadline_at, unique_key, unique_until, created_at)
  SELECT actor, queue,
         CASE WHEN due > now THEN 'scheduled' ELSE 'pending' END,
         priority::smallint, payload::jsonb, labels::jsonb, due, max_attempts,
         retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,
         deadline_at, unique_key, unique_until, now
  FROM req
  WHERE twin_id IS NULL
  ORDER BY ord
  RETURNING id, status, queue
),
woken AS (
  SELECT pg_notify(?, w.queue) FROM (SELECT DISTINCT queue FROM inserted WHERE status = 'pending') w
)
SELECT id, NULL::bigint AS ord FROM inserted
UNION ALL
SELECT twin_id, ord FROM req WHERE twin_id IS NOT NULL
UNION ALL
SELECT NULL::bigint, NULL::bigint FROM (SELECT count(*) FROM woken) n
