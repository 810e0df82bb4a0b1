-- TaskQ schema, version 9: one statement enqueues a completed batch's hook job (L9).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- Until now the hook job's INSERT was written twice: in V004's settle_batch_members (the
-- completion path of the last member) and in S7's complete_stale_batches (the repair of a lost
-- completion). enqueue_batch_hooks is now the only place that knows how a hook job is built from
-- the template stamped on its batch row; both callers hand it the batches they complete, with the
-- counts they computed, and settle_batch_members is redefined (same signature, same behaviour) to
-- call it.

-- L9: inserts the hook job of each given batch that has a hook (hook_actor not NULL), status
-- 'pending', due now, with the batch's hook queue, priority and retry columns and the payload
-- {"batch_id", "total", "succeeded", "failed", "cancelled", "payload": hook_payload} (V002's
-- comment on batches), in batch id order. Arguments are parallel arrays: batch ids and the final
-- succeeded / failed / cancelled counts. The caller has locked the batch rows and moves them to
-- 'completed' in the same transaction. Returns one row per job inserted: its id, queue and batch.
-- B4: written timestamps use clock_timestamp(). No job_events rows.
CREATE FUNCTION {schema}.enqueue_batch_hooks(
  p_batch bigint[], p_succeeded bigint[], p_failed bigint[], p_cancelled bigint[])
RETURNS TABLE (id bigint, queue text, batch_id bigint)
LANGUAGE sql VOLATILE
AS $$
  INSERT INTO {schema}.jobs
    (actor, queue, status, priority, payload, run_at, max_attempts,
     retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter)
  SELECT b.hook_actor, b.hook_queue, 'pending', b.hook_priority,
         jsonb_build_object(
           'batch_id', b.id, 'total', b.total, 'succeeded', c.succeeded, 'failed', c.failed,
           'cancelled', c.cancelled, 'payload', b.hook_payload),
         clock_timestamp(), b.hook_max_attempts,
         b.hook_retry_backoff, b.hook_retry_base_ms, b.hook_retry_cap_ms, b.hook_retry_jitter
    FROM unnest(p_batch, p_succeeded, p_failed, p_cancelled)
           AS c(batch_id, succeeded, failed, cancelled)
    JOIN {schema}.batches b ON b.id = c.batch_id
   WHERE b.hook_actor IS NOT NULL
   ORDER BY b.id
  RETURNING id, queue, (payload ->> 'batch_id')::bigint
$$;

-- L9: V004's settle_batch_members, unchanged but for the hook: the completing batches go to
-- enqueue_batch_hooks. See V004 for the contract (locking order, exactly once, the wake NOTIFY).
CREATE OR REPLACE FUNCTION {schema}.settle_batch_members(
  member_batch bigint[], member_status text[], wake_channel text)
RETURNS integer
LANGUAGE sql VOLATILE
AS $$
  WITH delta AS (
    SELECT m.batch_id,
           count(*) FILTER (WHERE m.status = 'succeeded') AS succeeded,
           count(*) FILTER (WHERE m.status IN ('failed', 'crashed')) AS failed,
           count(*) FILTER (WHERE m.status = 'cancelled') AS cancelled
      FROM unnest(member_batch, member_status) AS m(batch_id, status)
     WHERE m.batch_id IS NOT NULL
       AND m.status IN ('succeeded', 'failed', 'crashed', 'cancelled')
     GROUP BY m.batch_id
  ),
  locked AS MATERIALIZED (
    SELECT b.id, b.total,
           b.succeeded + d.succeeded AS succeeded,
           b.failed + d.failed AS failed,
           b.cancelled + d.cancelled AS cancelled,
           b.succeeded + d.succeeded + b.failed + d.failed + b.cancelled + d.cancelled >= b.total
             AS completes
      FROM {schema}.batches b
      JOIN delta d ON d.batch_id = b.id
     WHERE b.status = 'active'
     ORDER BY b.id
       FOR UPDATE OF b
  ),
  hook AS MATERIALIZED (
    SELECT h.id, h.queue, h.batch_id
      FROM (SELECT array_agg(id ORDER BY id) AS ids,
                   array_agg(succeeded ORDER BY id) AS succeeded,
                   array_agg(failed ORDER BY id) AS failed,
                   array_agg(cancelled ORDER BY id) AS cancelled
              FROM locked
             WHERE completes) c,
           LATERAL {schema}.enqueue_batch_hooks(c.ids, c.succeeded, c.failed, c.cancelled) h
  ),
  woken AS (
    SELECT count(pg_notify(wake_channel, w.queue)) AS n
      FROM (SELECT DISTINCT queue FROM hook) w
     WHERE wake_channel IS NOT NULL
  ),
  done AS (
    UPDATE {schema}.batches b
       SET succeeded = l.succeeded,
           failed = l.failed,
           cancelled = l.cancelled,
           status = CASE WHEN l.completes THEN 'completed' ELSE 'active' END,
           completed_at = CASE WHEN l.completes THEN clock_timestamp() END,
           hook_job_id = h.id,
           hook_enqueued_at = CASE WHEN h.id IS NULL THEN NULL ELSE clock_timestamp() END
      FROM locked l
      LEFT JOIN hook h ON h.batch_id = l.id
     WHERE b.id = l.id
    RETURNING b.status
  )
  SELECT (count(*) FILTER (WHERE status = 'completed'))::integer
    FROM done, (SELECT n FROM woken) w
$$;
