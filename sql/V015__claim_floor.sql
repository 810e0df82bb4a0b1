-- TaskQ schema, version 15: a claim that does not walk the jobs it already took (X1).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- A claim changes a job's status, which can never be a HOT update, so every job a claim takes
-- leaves its old entry in jobs_claim_queue_idx. The claim's own scan marks such entries dead, but
-- their index pages stay until VACUUM removes them, and every later claim's scan of that (queue,
-- actor) starts at the oldest of them and reads through all of them: after 1 000 000 jobs of one
-- queue were processed and before VACUUM came, a pick of 128 read 7 152 index pages (16 ms)
-- instead of 10 (docs/benchmarks.md). A backlog drained before autovacuum came cost a claim more
-- with every job already done.
--
-- So each (queue, actor) has a floor, a key (priority, run_at, id) that no committed pending job
-- of the pair is below, and a claim starts its scan there (a row comparison on the index's own
-- columns, so the scan descends straight to it). The floor is the lower of claim_floor's floor
-- and the lowest of the pair's rows in claim_floor_low. Two rules keep the invariant:
--
-- 1. Lowering, by every writer, in its own transaction, without a lock. Whatever makes a job
--    pending (an enqueue, S3's promotion, S1's reclaim, a retry, a snooze, a release, an operator's
--    retry) or changes a pending job's key, queue or actor, and finds the job's key below the
--    pair's floor or below a raise under way (the proposal, below), inserts the key into
--    claim_floor_low, unless a lower one is there already. Triggers on jobs do it, so no path and
--    no hand-written UPDATE can miss it. The common enqueue (a new id, due now) sorts above the
--    floor: its trigger reads the pair's row and writes nothing. An insert waits for nobody and
--    cannot deadlock, so a writer never waits on a claim or on another writer here.
--
-- 2. Raising, in three steps a claim of the pair drives, at most one step per pair every 50 ms
--    (checked_at), under FOR UPDATE SKIP LOCKED on the pair's claim_floor row, so no claim ever
--    waits for it:
--
--    stage 0 -> 1, propose: the first pending key at or above the floor becomes the proposal,
--      stamped with the proposing transaction's id (prop_xid). A writer whose statement sees the
--      proposal logs a key below it (rule 1).
--    stage 1 -> 2, wait for older snapshots: a writer whose statement began before the proposal
--      committed did not see it, and may yet commit a job below it. While its statement runs, its
--      snapshot's xmin is at most prop_xid; the step waits until no backend of this database holds
--      such a snapshot (pg_stat_activity.backend_xmin, readable by every role), then records the
--      next transaction id (horizon). Every such writer has its transaction id by then, below the
--      horizon.
--    stage 2 -> 0, apply: once every transaction below the horizon has ended (pg_snapshot_xmin of
--      the current snapshot), every writer that did not see the proposal has committed or aborted.
--      One statement, one snapshot, then takes the pair's logged keys out of claim_floor_low, reads
--      the first pending key at or above the lower of them and the floor, and makes the floor the
--      lower of that key and the proposal. A key logged by a transaction that commits after that
--      snapshot stays in claim_floor_low, and the floor is the lower of the two again.
--
--    A long transaction or an old snapshot in this database holds a raise back, as it holds back
--    VACUUM; the floor then stays where it is and the claim reads what it read before this version.
--    A claim that reads an older floor than the newest reads more entries, never fewer jobs: the
--    claim's order and its results are those of V008.
CREATE TABLE {schema}.claim_floor (
  queue          text        NOT NULL,
  actor          text        NOT NULL,
  floor_priority smallint    NOT NULL DEFAULT -32768,
  floor_run_at   timestamptz NOT NULL DEFAULT '-infinity',
  floor_id       bigint      NOT NULL DEFAULT -9223372036854775808,
  -- The raise under way (stage 1 or 2); NULL at stage 0.
  prop_priority  smallint,
  prop_run_at    timestamptz,
  prop_id        bigint,
  prop_xid       xid8,
  horizon        xid8,
  stage          smallint    NOT NULL DEFAULT 0 CHECK (stage IN (0, 1, 2)),
  checked_at     timestamptz NOT NULL DEFAULT '-infinity',
  raised_at      timestamptz,
  PRIMARY KEY (queue, actor)
);

-- Rule 1's log: keys below the floor (or a proposal) that writers found, taken out by the next
-- raise of the pair. Usually empty; a writer adds a key only when nothing lower is logged.
CREATE TABLE {schema}.claim_floor_low (
  queue    text        NOT NULL,
  actor    text        NOT NULL,
  priority smallint    NOT NULL,
  run_at   timestamptz NOT NULL,
  id       bigint      NOT NULL
);
CREATE INDEX claim_floor_low_key_idx ON {schema}.claim_floor_low (queue, actor, priority, run_at, id);

-- Rule 1's test: is the key below the pair's floor, or below its proposal (a raise under way)?
-- (A SQL function of one expression: the planner inlines it into the statements that call it.)
CREATE FUNCTION {schema}.claim_floor_below(f {schema}.claim_floor, p_priority smallint,
                                           p_run_at timestamptz, p_id bigint)
RETURNS boolean
LANGUAGE sql IMMUTABLE
AS $$
  SELECT (p_priority, p_run_at, p_id) < (f.floor_priority, f.floor_run_at, f.floor_id)
      OR coalesce((p_priority, p_run_at, p_id) < (f.prop_priority, f.prop_run_at, f.prop_id), false)
$$;

-- Rule 1 for one job: logs its key if it is below the pair's floor or proposal and nothing lower
-- is logged. A pair without a claim_floor row has no floor (its claims scan from the start).
CREATE FUNCTION {schema}.claim_floor_lower(p_queue text, p_actor text, p_priority smallint,
                                           p_run_at timestamptz, p_id bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
BEGIN
  INSERT INTO {schema}.claim_floor_low (queue, actor, priority, run_at, id)
  SELECT p_queue, p_actor, p_priority, p_run_at, p_id
    FROM {schema}.claim_floor f
   WHERE f.queue = p_queue AND f.actor = p_actor
     AND {schema}.claim_floor_below(f, p_priority, p_run_at, p_id)
     AND NOT EXISTS (SELECT 1
                       FROM {schema}.claim_floor_low l
                      WHERE l.queue = p_queue AND l.actor = p_actor
                        AND (l.priority, l.run_at, l.id) <= (p_priority, p_run_at, p_id));
END
$$;

-- Rule 1 for an inserting statement (an enqueue, a batch, COPY): once per statement, one pass over
-- its rows against the pairs' floors; for a pair with jobs below, the lowest of them.
CREATE FUNCTION {schema}.claim_floor_after_insert()
RETURNS trigger
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  low record;
BEGIN
  FOR low IN
    SELECT DISTINCT ON (n.queue, n.actor) n.queue, n.actor, n.priority, n.run_at, n.id
      FROM inserted n
      JOIN {schema}.claim_floor f ON f.queue = n.queue AND f.actor = n.actor
     WHERE n.status = 'pending'
       AND {schema}.claim_floor_below(f, n.priority, n.run_at, n.id)
     ORDER BY n.queue, n.actor, n.priority, n.run_at, n.id
  LOOP
    PERFORM {schema}.claim_floor_lower(low.queue, low.actor, low.priority, low.run_at, low.id);
  END LOOP;
  RETURN NULL;
END
$$;

-- Rule 1 for an updated row that became pending or changed its key while pending.
CREATE FUNCTION {schema}.claim_floor_after_update()
RETURNS trigger
LANGUAGE plpgsql VOLATILE
AS $$
BEGIN
  PERFORM {schema}.claim_floor_lower(NEW.queue, NEW.actor, NEW.priority, NEW.run_at, NEW.id);
  RETURN NULL;
END
$$;

CREATE TRIGGER jobs_claim_floor_insert
  AFTER INSERT ON {schema}.jobs
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION {schema}.claim_floor_after_insert();

-- The WHEN clause is evaluated without calling the function: a claim (pending to running), a
-- heartbeat or a completion never calls it.
CREATE TRIGGER jobs_claim_floor_update
  AFTER UPDATE ON {schema}.jobs
  FOR EACH ROW
  WHEN (NEW.status = 'pending'
        AND (OLD.status <> 'pending'
             OR NEW.priority <> OLD.priority OR NEW.run_at <> OLD.run_at
             OR NEW.queue <> OLD.queue OR NEW.actor <> OLD.actor))
  EXECUTE FUNCTION {schema}.claim_floor_after_update();

-- The pair's floor as a claim reads it: the lower of claim_floor's floor and the lowest logged key.
-- No row when the pair has none in claim_floor yet. (A set-returning SQL function, so that the
-- planner inlines it into the statement that reads it.)
CREATE FUNCTION {schema}.claim_floor_of(p_queue text, p_actor text)
RETURNS TABLE (floor_priority smallint, floor_run_at timestamptz, floor_id bigint,
               checked_at timestamptz)
LANGUAGE sql STABLE
AS $$
  SELECT coalesce(l.priority, c.floor_priority), coalesce(l.run_at, c.floor_run_at),
         coalesce(l.id, c.floor_id), c.checked_at
    FROM {schema}.claim_floor c
    LEFT JOIN LATERAL (
          SELECT g.priority, g.run_at, g.id
            FROM {schema}.claim_floor_low g
           WHERE g.queue = c.queue AND g.actor = c.actor
             AND (g.priority, g.run_at, g.id) < (c.floor_priority, c.floor_run_at, c.floor_id)
           ORDER BY g.priority, g.run_at, g.id
           LIMIT 1) l ON true
   WHERE c.queue = p_queue AND c.actor = p_actor
$$;

-- The pair's first pending key at or above a key (no row when none), for a raise's two reads.
CREATE FUNCTION {schema}.claim_floor_first_pending(p_queue text, p_actor text,
                                                   p_priority smallint, p_run_at timestamptz,
                                                   p_id bigint)
RETURNS TABLE (priority smallint, run_at timestamptz, id bigint)
LANGUAGE sql STABLE
AS $$
  SELECT j.priority, j.run_at, j.id
    FROM {schema}.jobs j
   WHERE j.status = 'pending'
     AND j.queue = p_queue
     AND j.actor = p_actor
     AND (j.priority, j.run_at, j.id) >= (p_priority, p_run_at, p_id)
   ORDER BY j.priority, j.run_at, j.id
   LIMIT 1
$$;

-- Rule 2: one step of the pair's raise, if its last step is 50 ms old and no other claim is taking
-- one. Called by claim_pick, inside the claim's transaction, before its pick.
CREATE FUNCTION {schema}.claim_floor_step(p_queue text, p_actor text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET jit = off
AS $$
DECLARE
  f {schema}.claim_floor%ROWTYPE;
  first_pending record;
BEGIN
  SELECT * INTO f
    FROM {schema}.claim_floor
   WHERE queue = p_queue AND actor = p_actor
     AND checked_at <= clock_timestamp() - interval '50 milliseconds'
     FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF f.stage = 0 THEN
    -- Propose the first pending key at or above the floor as the claims read it, if it is above;
    -- or, when only logged keys lie below, the floor itself, so the apply takes them out.
    SELECT fp.priority, fp.run_at, fp.id INTO first_pending
      FROM {schema}.claim_floor_of(p_queue, p_actor) e
     CROSS JOIN LATERAL {schema}.claim_floor_first_pending(
                          p_queue, p_actor, e.floor_priority, e.floor_run_at, e.floor_id) fp;
    IF FOUND AND (first_pending.priority, first_pending.run_at, first_pending.id)
                 > (f.floor_priority, f.floor_run_at, f.floor_id) THEN
      UPDATE {schema}.claim_floor
         SET stage = 1, prop_priority = first_pending.priority, prop_run_at = first_pending.run_at,
             prop_id = first_pending.id, prop_xid = pg_current_xact_id(),
             checked_at = clock_timestamp()
       WHERE queue = p_queue AND actor = p_actor;
    ELSIF EXISTS (SELECT 1 FROM {schema}.claim_floor_low l
                   WHERE l.queue = p_queue AND l.actor = p_actor) THEN
      UPDATE {schema}.claim_floor
         SET stage = 1, prop_priority = f.floor_priority, prop_run_at = f.floor_run_at,
             prop_id = f.floor_id, prop_xid = pg_current_xact_id(),
             checked_at = clock_timestamp()
       WHERE queue = p_queue AND actor = p_actor;
    ELSE
      UPDATE {schema}.claim_floor SET checked_at = clock_timestamp()
       WHERE queue = p_queue AND actor = p_actor;
    END IF;
  ELSIF f.stage = 1 THEN
    -- A proposal older than a billion transactions cannot be compared by age(): start over.
    IF age(xid(f.prop_xid)) > 1000000000 THEN
      UPDATE {schema}.claim_floor
         SET stage = 0, prop_priority = NULL, prop_run_at = NULL, prop_id = NULL, prop_xid = NULL,
             horizon = NULL, checked_at = clock_timestamp()
       WHERE queue = p_queue AND actor = p_actor;
    ELSIF EXISTS (SELECT 1
                    FROM pg_catalog.pg_stat_activity a
                   WHERE a.datid = (SELECT d.oid FROM pg_catalog.pg_database d
                                     WHERE d.datname = current_database())
                     AND a.pid <> pg_backend_pid()
                     AND a.backend_xmin IS NOT NULL
                     AND age(a.backend_xmin) >= age(xid(f.prop_xid))) THEN
      UPDATE {schema}.claim_floor SET checked_at = clock_timestamp()
       WHERE queue = p_queue AND actor = p_actor;
    ELSE
      UPDATE {schema}.claim_floor
         SET stage = 2, horizon = pg_snapshot_xmax(pg_current_snapshot()),
             checked_at = clock_timestamp()
       WHERE queue = p_queue AND actor = p_actor;
    END IF;
  ELSIF pg_snapshot_xmin(pg_current_snapshot()) < f.horizon THEN
    UPDATE {schema}.claim_floor SET checked_at = clock_timestamp()
     WHERE queue = p_queue AND actor = p_actor;
  ELSE
    -- Apply, in one statement and so one snapshot: every logged key it takes out belongs to a job
    -- it sees, which is at or above the first pending key it reads unless no longer pending.
    WITH taken AS (
           DELETE FROM {schema}.claim_floor_low l
            WHERE l.queue = p_queue AND l.actor = p_actor
           RETURNING l.priority, l.run_at, l.id),
         start AS (
           SELECT k.priority, k.run_at, k.id
             FROM (SELECT f.floor_priority AS priority, f.floor_run_at AS run_at, f.floor_id AS id
                   UNION ALL
                   SELECT t.priority, t.run_at, t.id FROM taken t) k
            ORDER BY k.priority, k.run_at, k.id
            LIMIT 1),
         first_left AS (
           SELECT fp.priority, fp.run_at, fp.id
             FROM start s
            CROSS JOIN LATERAL {schema}.claim_floor_first_pending(
                                 p_queue, p_actor, s.priority, s.run_at, s.id) fp),
         raised AS (
           SELECT k.priority, k.run_at, k.id
             FROM (SELECT f.prop_priority AS priority, f.prop_run_at AS run_at, f.prop_id AS id
                   UNION ALL
                   SELECT fl.priority, fl.run_at, fl.id FROM first_left fl) k
            ORDER BY k.priority, k.run_at, k.id
            LIMIT 1)
    UPDATE {schema}.claim_floor c
       SET floor_priority = r.priority, floor_run_at = r.run_at, floor_id = r.id,
           stage = 0, prop_priority = NULL, prop_run_at = NULL, prop_id = NULL, prop_xid = NULL,
           horizon = NULL, checked_at = clock_timestamp(), raised_at = clock_timestamp()
      FROM raised r
     WHERE c.queue = p_queue AND c.actor = p_actor;
  END IF;
END
$$;

-- X1 (V008), now from the floor: the ids a claim takes, at most p_limit due pending jobs of the
-- given queues and actors, in (priority, run_at, id) order, locked FOR UPDATE SKIP LOCKED; each
-- pair's scan of jobs_claim_queue_idx starts at the pair's floor (claim_floor_of). A pair without
-- a claim_floor row gets one (at the lowest key, which every job is above), and every pair served
-- takes its raise a step further (claim_floor_step) before the pick. Otherwise as V008: one pair
-- is one ordered scan stopped at p_limit; several pairs are merged without locks first, then each
-- pair's scan locks its quota; A4's pauses; B4's statement_timestamp(); jit off.
CREATE OR REPLACE FUNCTION {schema}.claim_pick(p_queues text[], p_actors text[], p_limit integer)
RETURNS bigint[]
LANGUAGE plpgsql VOLATILE
SET jit = off
AS $$
DECLARE
  picked bigint[] := '{}';
  pair record;
  f record;
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
    -- The step comes before the pick, so a proposal is the first pending job the claims before
    -- this one left, not the first of this claim's own batch. A pair's first claim makes its row
    -- (whose checked_at is due) and takes its first step.
    SELECT * INTO f FROM {schema}.claim_floor_of(p_queues[1], p_actors[1]);
    IF NOT FOUND OR f.checked_at <= clock_timestamp() - interval '50 milliseconds' THEN
      IF NOT FOUND THEN
        INSERT INTO {schema}.claim_floor (queue, actor) VALUES (p_queues[1], p_actors[1])
          ON CONFLICT DO NOTHING;
      END IF;
      PERFORM {schema}.claim_floor_step(p_queues[1], p_actors[1]);
      SELECT * INTO f FROM {schema}.claim_floor_of(p_queues[1], p_actors[1]);
      IF NOT FOUND THEN
        -- The row was deleted meanwhile (by hand): the lowest key, as a new row's.
        SELECT (-32768)::smallint AS floor_priority, '-infinity'::timestamptz AS floor_run_at,
               (-9223372036854775808)::bigint AS floor_id
          INTO f;
      END IF;
    END IF;
    picked := ARRAY(
      SELECT j.id
        FROM {schema}.jobs j
       WHERE j.status = 'pending'
         AND j.queue = p_queues[1]
         AND j.actor = p_actors[1]
         AND (j.priority, j.run_at, j.id) >= (f.floor_priority, f.floor_run_at, f.floor_id)
         AND j.run_at <= statement_timestamp()
       ORDER BY j.priority, j.run_at, j.id
       LIMIT p_limit
         FOR UPDATE SKIP LOCKED);
    RETURN picked;
  END IF;
  -- A pair's row is made once; after that each pair costs a probe of the primary key here.
  INSERT INTO {schema}.claim_floor (queue, actor)
  SELECT DISTINCT q.queue, a.actor
    FROM unnest(p_queues) AS q(queue)
   CROSS JOIN unnest(p_actors) AS a(actor)
   ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  -- Every pair served takes its steps (before the pick, as above), not only those the merge will
  -- take jobs from: the merge reads every pair's range. At most four per claim, the longest
  -- unchecked first, so a worker serving many pairs does not write many rows per claim.
  FOR pair IN
    SELECT c.queue, c.actor
      FROM {schema}.claim_floor c
     WHERE c.queue = ANY (p_queues) AND c.actor = ANY (p_actors)
       AND c.checked_at <= clock_timestamp() - interval '50 milliseconds'
     ORDER BY c.checked_at, c.queue, c.actor
     LIMIT 4
  LOOP
    PERFORM {schema}.claim_floor_step(pair.queue, pair.actor);
  END LOOP;
  FOR pair IN
    SELECT top.queue, top.actor, top.floor_priority, top.floor_run_at, top.floor_id,
           count(*)::integer AS quota
      FROM (SELECT s.queue, s.actor, s.floor_priority, s.floor_run_at, s.floor_id
              FROM (SELECT DISTINCT q.queue, a.actor, c.floor_priority, c.floor_run_at, c.floor_id
                      FROM unnest(p_queues) AS q(queue)
                     CROSS JOIN unnest(p_actors) AS a(actor)
                     CROSS JOIN LATERAL {schema}.claim_floor_of(q.queue, a.actor) c
                     WHERE q.queue NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'queue')
                       AND a.actor NOT IN (SELECT name FROM {schema}.paused WHERE kind = 'actor')) s
             CROSS JOIN LATERAL (
                   SELECT j.priority, j.run_at, j.id
                     FROM {schema}.jobs j
                    WHERE j.status = 'pending'
                      AND j.queue = s.queue
                      AND j.actor = s.actor
                      AND (j.priority, j.run_at, j.id) >= (s.floor_priority, s.floor_run_at, s.floor_id)
                      AND j.run_at <= statement_timestamp()
                    ORDER BY j.priority, j.run_at, j.id
                    LIMIT p_limit) head
             ORDER BY head.priority, head.run_at, head.id
             LIMIT p_limit) top
     GROUP BY top.queue, top.actor, top.floor_priority, top.floor_run_at, top.floor_id
  LOOP
    picked := picked || ARRAY(
      SELECT j.id
        FROM {schema}.jobs j
       WHERE j.status = 'pending'
         AND j.queue = pair.queue
         AND j.actor = pair.actor
         AND (j.priority, j.run_at, j.id) >= (pair.floor_priority, pair.floor_run_at, pair.floor_id)
         AND j.run_at <= statement_timestamp()
       ORDER BY j.priority, j.run_at, j.id
       LIMIT pair.quota
         FOR UPDATE SKIP LOCKED);
  END LOOP;
  RETURN picked;
END
$$;
