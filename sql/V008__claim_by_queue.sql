-- TaskQ schema, version 8: a claim whose cost does not grow with the table (X1).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- The claim index of V001, (priority, run_at, id) WHERE status = 'pending', knew nothing of queue
-- or actor: a worker walked the pending jobs of every queue in priority order and discarded the
-- ones it does not serve, so 1 000 000 pending jobs of a queue nobody serves cost about 200 ms per
-- claim. The index now leads with what a worker asks for: queue, then actor, then the claim order.
-- A claim reads one ordered range per (queue, actor) it serves and stops at its batch, whatever
-- else the table holds. The rebuild takes a write lock on jobs for its duration (as any
-- CREATE INDEX); on a large table, build jobs_claim_queue_idx CONCURRENTLY by hand first (same
-- definition), and this file then only drops the old index (docs/upgrading.md).
CREATE INDEX IF NOT EXISTS jobs_claim_queue_idx ON {schema}.jobs (queue, actor, priority, run_at, id)
  WHERE status = 'pending';
DROP INDEX {schema}.jobs_claim_idx;

-- X1: the ids a claim takes, at most p_limit due pending jobs of the given queues and actors, in
-- (priority, run_at, id) order, locked FOR UPDATE SKIP LOCKED. The claim statement (claim.sql)
-- updates exactly these ids by primary key.
--
-- One (queue, actor) pair: one ordered scan of jobs_claim_queue_idx, stopped at p_limit. Several
-- pairs: first the merge, without locks: each pair's first p_limit entries in claim order, merged,
-- the first p_limit of the merge counted per pair (its quota); then each pair's scan locks its
-- quota with SKIP LOCKED, so a row another claimer holds is replaced by the next of the same pair,
-- and no pair locks rows it will not take. Each scan is an index range, never a scan of other
-- queues' or finished rows.
--
-- Why a function: each pair's scan stops at a count known only at run time, and a planner
-- estimate of such a LIMIT is a tenth of the whole range: for a large backlog the estimate of one
-- statement reaches the JIT threshold, and JIT compilation costs hundreds of milliseconds per
-- claim. Here each scan is planned on its own (PL/pgSQL keeps custom plans when the generic one
-- estimates worse), and jit is off for the function's statements whatever the session says.
-- A4 (V007): a paused queue's or actor's pairs are not scanned at all, whatever the worker's view
-- of the pauses (the paused table as this function's statements read it).
-- B4: every comparison uses statement_timestamp(), the claim statement's start.
CREATE FUNCTION {schema}.claim_pick(p_queues text[], p_actors text[], p_limit integer)
RETURNS bigint[]
LANGUAGE plpgsql VOLATILE
SET jit = off
AS $$
DECLARE
  picked bigint[] := '{}';
  pair record;
BEGIN
  IF p_limit IS NULL OR p_limit < 1 THEN
    RETURN picked;
  END IF;
  IF EXISTS (SELECT 1 FROM {schema}.paused WHERE kind = 'queue' AND name = '*') THEN
    RETURN picked;
  END IF;
  IF cardinality(p_queues) = 1 AND cardinality(p_actors) = 1 THEN
    IF EXISTS (SELECT 1
                 FROM {schema}.paused
                WHERE (kind = 'queue' AND name = p_queues[1])
                   OR (kind = 'actor' AND name = p_actors[1])) THEN
      RETURN picked;
    END IF;
    RETURN ARRAY(
      SELECT j.id
        FROM {schema}.jobs j
       WHERE j.status = 'pending'
         AND j.queue = p_queues[1]
         AND j.actor = p_actors[1]
         AND j.run_at <= statement_timestamp()
       ORDER BY j.priority, j.run_at, j.id
       LIMIT p_limit
         FOR UPDATE SKIP LOCKED);
  END IF;
  FOR pair IN
    SELECT top.queue, top.actor, count(*)::integer AS quota
      FROM (SELECT s.queue, s.actor
              FROM (SELECT DISTINCT q.queue, a.actor
                      FROM unnest(p_queues) AS q(queue)
                     CROSS JOIN unnest(p_actors) AS a(actor)
                     WHERE q.queue NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'queue')
                       AND a.actor NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'actor')) s
             CROSS JOIN LATERAL (
                   SELECT j.priority, j.run_at, j.id
                     FROM {schema}.jobs j
                    WHERE j.status = 'pending'
                      AND j.queue = s.queue
                      AND j.actor = s.actor
                      AND j.run_at <= statement_timestamp()
                    ORDER BY j.priority, j.run_at, j.id
                    LIMIT p_limit) head
             ORDER BY head.priority, head.run_at, head.id
             LIMIT p_limit) top
     GROUP BY top.queue, top.actor
  LOOP
    picked := picked || ARRAY(
      SELECT j.id
        FROM {schema}.jobs j
       WHERE j.status = 'pending'
         AND j.queue = pair.queue
         AND j.actor = pair.actor
         AND j.run_at <= statement_timestamp()
       ORDER BY j.priority, j.run_at, j.id
       LIMIT pair.quota
         FOR UPDATE SKIP LOCKED);
  END LOOP;
  RETURN picked;
END
$$;
