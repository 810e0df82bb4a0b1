-- Enqueue (L2, L6). {schema} is the validated, quoted schema (M3); everything else is bound.

-- name: lock_unique_keys
-- L6/M4: the keyed transaction locks taskq:unique_for:{schema}:{actor}:{identity_key}, one per
-- distinct key, taken in ascending key order (the caller sorts the array; unnest keeps array
-- order) so two batches sharing keys cannot deadlock. Held until the transaction ends: a second
-- enqueuer of the key waits until the first job has committed, then finds it.
SELECT pg_advisory_xact_lock(k) FROM unnest(?::bigint[]) AS u(k)

-- name: insert_jobs
-- L2: the whole batch in one statement, dictionary-encoded (EnqueueColumns): the distinct option
--     sets of the batch as one array per option (usually one set for the whole batch), and per job
--     its payload and the number of its set. The options' expressions (times, labels, the twin
--     lookup) are evaluated once per set; the jobs are unnested WITH ORDINALITY and inserted ORDER
--     BY the ordinal, so identity ids rise in input order (the client relies on it).
-- L4: every time comes from the database clock, read once (clock_timestamp()) for the batch; a job
--     due now or earlier is 'pending', a later one 'scheduled'.
-- L3: the retry policy is stamped into the row.
-- L7: the concurrency key is stored with the job; the claim reads it (V005).
-- A6: the job's own per-attempt timeout (NULL: the actor's) is stored; the claim reads it (V007).
-- L6: the client folds jobs sharing an actor and unique key, so a set with a unique key belongs to
--     exactly one job. When that set's live twin exists (same actor and key, window not over, not
--     cancelled) its job is not inserted and the twin's id is returned with the set's number. The
--     keyed locks are held already (lock_unique_keys ran in an earlier statement, so this snapshot
--     sees every twin committed before the lock was granted).
-- D11: one wake per distinct queue that got a due job, delivered on commit only; the payload is
--     the queue name, never the job's payload. Every set without a twin inserts all its jobs, so
--     the queues are read from the sets.
-- Result rows: (id, NULL) per inserted job; (twin id, set number) per deduplicated job; and one
-- (NULL, NULL) row that makes the wake CTE run.
WITH clock AS (
  SELECT clock_timestamp() AS now
),
opt AS MATERIALIZED (
  SELECT o.k, o.actor, o.queue, o.priority::smallint AS priority, o.labels::jsonb AS labels,
         o.max_attempts, o.retry_backoff, o.retry_base_ms, o.retry_cap_ms, o.retry_jitter,
         o.unique_key, o.concurrency_key, o.attempt_timeout_ms, c.now,
         COALESCE(o.run_at::timestamptz,
                  c.now + COALESCE(o.delay_us, 0) * interval '1 microsecond') AS due,
         c.now + o.deadline_us * interval '1 microsecond' AS deadline_at,
         c.now + o.unique_us * interval '1 microsecond' AS unique_until,
         CASE WHEN o.unique_key IS NULL THEN NULL ELSE (
           SELECT j.id
           FROM {schema}.jobs j
           WHERE j.actor = o.actor
             AND j.unique_key = o.unique_key
             AND j.unique_until > c.now
             AND j.status <> 'cancelled'
           ORDER BY j.id DESC
           LIMIT 1
         ) END AS twin_id
  FROM unnest(?::text[], ?::text[], ?::integer[], ?::text[], ?::text[], ?::bigint[],
              ?::integer[], ?::text[], ?::bigint[], ?::bigint[], ?::float8[], ?::bigint[],
              ?::text[], ?::bigint[], ?::text[], ?::bigint[])
       WITH ORDINALITY AS o(actor, queue, priority, labels, run_at, delay_us, max_attempts,
                            retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, deadline_us,
                            unique_key, unique_us, concurrency_key, attempt_timeout_ms, k)
  CROSS JOIN clock c
),
inserted AS (
  INSERT INTO {schema}.jobs (
    actor, queue, status, priority, payload, labels, run_at, max_attempts,
    retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,
    deadline_at, unique_key, unique_until, concurrency_key, attempt_timeout_ms, created_at)
  SELECT o.actor, o.queue,
         CASE WHEN o.due > o.now THEN 'scheduled' ELSE 'pending' END,
         o.priority, r.payload::jsonb, o.labels, o.due, o.max_attempts,
         o.retry_backoff, o.retry_base_ms, o.retry_cap_ms, o.retry_jitter,
         o.deadline_at, o.unique_key, o.unique_until, o.concurrency_key, o.attempt_timeout_ms, o.now
  FROM unnest(?::text[], ?::integer[]) WITH ORDINALITY AS r(payload, k, ord)
  JOIN opt o ON o.k = r.k
  WHERE o.twin_id IS NULL
  ORDER BY r.ord
  RETURNING id
),
woken AS (
  SELECT pg_notify(?, w.queue)
  FROM (SELECT DISTINCT queue FROM opt WHERE twin_id IS NULL AND due <= now) w
)
SELECT id, NULL::bigint AS k FROM inserted
UNION ALL
SELECT twin_id, k FROM opt WHERE twin_id IS NOT NULL
UNION ALL
SELECT NULL::bigint, NULL::bigint FROM (SELECT count(*) FROM woken) n

-- name: insert_jobs_one_set
-- L2: the common bulk enqueue: every job of the chunk has the same options and none has a unique
--     key (JobInserter picks this statement then, insert_jobs otherwise). The options are bound once
--     as scalars and evaluated once (the MATERIALIZED row o), the payloads as one array. Same rules
--     as insert_jobs: one database clock reading (L4), the policy stamped (L3), the concurrency key
--     stored (L7).
-- Why it reads like this (each shape measured on 1000-row batches; together about a tenth of the
-- statement's time):
--   * each option is an uncorrelated subquery on o, an InitPlan evaluated once; the rows are a
--     plain scan of the payloads, with no join that would rescan o once per row;
--   * the scan is unnest WITH ORDINALITY, whose output the planner knows is ordered by the
--     ordinal, so ORDER BY r.ord costs no sort, and identity ids rise in input order;
--   * the INSERT is the statement itself, not a CTE whose rows are stored and read again.
-- D11: one wake on commit when the jobs are due, carrying the queue name only; woken is read by an
--     InitPlan too, so it runs once, before the first row.
-- Result rows: one (id) per job.
WITH o AS MATERIALIZED (
  SELECT ?::text AS actor, ?::text AS queue, ?::smallint AS priority, ?::jsonb AS labels,
         ?::integer AS max_attempts, ?::text AS retry_backoff, ?::bigint AS retry_base_ms,
         ?::bigint AS retry_cap_ms, ?::float8 AS retry_jitter, ?::text AS concurrency_key, c.now,
         COALESCE(?::timestamptz,
                  c.now + COALESCE(?::bigint, 0) * interval '1 microsecond') AS due,
         c.now + ?::bigint * interval '1 microsecond' AS deadline_at,
         ?::bigint AS attempt_timeout_ms
  FROM (SELECT clock_timestamp() AS now) c
),
woken AS (
  SELECT pg_notify(?, o.queue) FROM o WHERE o.due <= o.now
)
INSERT INTO {schema}.jobs (
  actor, queue, status, priority, payload, labels, run_at, max_attempts,
  retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,
  deadline_at, concurrency_key, attempt_timeout_ms, created_at)
SELECT (SELECT actor FROM o),
       (SELECT queue FROM o),
       (SELECT CASE WHEN due > now THEN 'scheduled' ELSE 'pending' END FROM o),
       (SELECT priority FROM o),
       r.payload::jsonb,
       (SELECT labels FROM o),
       (SELECT due FROM o),
       (SELECT max_attempts FROM o),
       (SELECT retry_backoff FROM o),
       (SELECT retry_base_ms FROM o),
       (SELECT retry_cap_ms FROM o),
       (SELECT retry_jitter FROM o),
       (SELECT deadline_at FROM o),
       (SELECT concurrency_key FROM o),
       (SELECT attempt_timeout_ms FROM o),
       (SELECT now FROM o)
FROM unnest(?::text[]) WITH ORDINALITY AS r(payload, ord)
WHERE (SELECT count(*) FROM woken) >= 0
ORDER BY r.ord
RETURNING id

-- name: copy_prepare
-- X3: the first of the COPY path's two round trips (JobInserter, chunks of at least
-- JobInserter.COPY_MIN_ROWS jobs without unique keys): one database clock reading for the whole
-- chunk (L4), the chunk's ids drawn from the identity sequence in input order (so ids rise in
-- input order), and the wake NOTIFY once per queue receiving a due job (D11: delivered on commit,
-- so a rolled-back COPY wakes nobody). A queue's due time is NULL when one of its jobs is due now,
-- else its earliest absolute run time, compared here with the same clock reading.
-- D10: the driver's query timeout does not reach a COPY (PgJDBC's copyIn has none), so the bound
-- is the server's: the transaction's statement_timeout becomes the client's statement timeout, or
-- stays the transaction's own when that is shorter (as it also bounds an INSERT), with SET LOCAL
-- semantics (set_config(..., true)); the value it had is returned and copy_restore_timeout puts
-- it back after the COPY. The OFFSET 0 subquery is evaluated before the outer target list, so the
-- captured value is the one from before the change.
-- Binds: the jobs table's name, the wake channel, queues text[], due text[], the chunk's size,
-- the client's statement timeout in milliseconds.
WITH c AS MATERIALIZED (
  SELECT clock_timestamp() AS now, pg_get_serial_sequence(?, 'id')::regclass AS seq
),
woken AS (
  SELECT pg_notify(?, w.queue)
    FROM unnest(?::text[], ?::timestamptz[]) AS w(queue, due), c
   WHERE w.due IS NULL OR w.due <= c.now
)
SELECT c.now,
       ARRAY(SELECT nextval(c.seq) FROM generate_series(1, ?)) AS ids,
       (SELECT count(*) FROM woken) AS woken,
       t.previous,
       set_config('statement_timeout',
                  LEAST(NULLIF(t.ms, 0), ?::bigint)::text, true) AS applied
  FROM c,
       (SELECT current_setting('statement_timeout') AS previous,
               (extract(epoch FROM current_setting('statement_timeout')::interval) * 1000)::bigint
                 AS ms
        OFFSET 0) t;

-- name: copy_restore_timeout
-- D10: after a COPY that succeeded, the transaction's statement_timeout as copy_prepare found it,
-- so a caller's transaction keeps its own bound for its later statements. After a failed COPY
-- the transaction is aborted; its rollback restores the value.
-- Binds: the captured value.
SELECT set_config('statement_timeout', ?, true);

-- name: copy_jobs
-- X3: the rows themselves, in COPY's text format, with the ids copy_prepare drew.
COPY {schema}.jobs (
  id, actor, queue, status, priority, payload, labels, run_at, max_attempts,
  retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,
  deadline_at, concurrency_key, attempt_timeout_ms, created_at)
FROM STDIN
