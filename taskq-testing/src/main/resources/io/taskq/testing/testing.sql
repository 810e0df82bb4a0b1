-- The test kit's reads of a TaskQ schema (P5, docs/testing.md). Used by io.taskq.testing.TestJobs.
-- Reads only: the kit never changes a job; jobs run through TaskQ (a worker, inline mode, drain).

-- name: matching
-- The jobs a JobMatcher selects, oldest first. Payloads compare as jsonb values (= and @>), never
-- as text, because jsonb rewrites the enqueued text. A NULL bind switches its condition off.
-- Binds: first id, actor, queue, statuses text[] (empty: any), payload equal to, payload containing.
WITH params AS (
  SELECT ?::bigint AS first_id, ?::text AS actor, ?::text AS queue, ?::text[] AS statuses,
         ?::jsonb AS payload_equals, ?::jsonb AS payload_contains
)
SELECT j.id, j.actor, j.queue, j.status, j.payload::text AS payload, j.attempt,
       j.result::text AS result, j.error_class, j.error_message
  FROM {schema}.jobs j, params p
 WHERE j.id >= p.first_id
   AND (p.actor IS NULL OR j.actor = p.actor)
   AND (p.queue IS NULL OR j.queue = p.queue)
   AND (cardinality(p.statuses) = 0 OR j.status = ANY (p.statuses))
   AND (p.payload_equals IS NULL OR j.payload = p.payload_equals)
   AND (p.payload_contains IS NULL OR j.payload @> p.payload_contains)
 ORDER BY j.id;

-- name: one
-- One job by id.
-- Binds: job id.
SELECT j.id, j.actor, j.queue, j.status, j.payload::text AS payload, j.attempt,
       j.result::text AS result, j.error_class, j.error_message
  FROM {schema}.jobs j
 WHERE j.id = ?;

-- name: next_id
-- The id the next enqueued job will get at the least (ids only grow).
SELECT COALESCE(max(id), 0) + 1 AS next_id FROM {schema}.jobs;
