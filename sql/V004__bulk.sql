-- TaskQ schema, version 4: batch completion on the member's own terminal transition (L9).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.

-- L9: settles the batch side of member transitions, called by every statement that makes jobs
-- terminal (completion, cancel, bulk cancel, lease release, the S1 reclaim and S2 deadline sweeps)
-- in the same transaction, after that statement locked and changed the job rows.
--
-- Arguments are parallel arrays over the rows the caller changed: each row's batch_id (NULL for a
-- job in no batch) and its new status; non-terminal statuses and NULL batches are ignored, so a
-- caller may pass every row it changed. wake_channel, when not NULL, gets one pg_notify per
-- enqueued hook (payload: the hook's queue, as an enqueue sends), delivered on commit.
--
-- Exactly once: the batch rows are locked FOR UPDATE in id order, always after the job rows (every
-- caller locks its job rows first), so two transactions finishing members of the same batches
-- queue on the batch rows in one order and never deadlock on them. Under READ COMMITTED the lock
-- returns the newest committed version of the row, so the counts add up whatever the interleaving:
-- of two transactions finishing the last two members at the same instant, the second to get the
-- lock sees the first's count and is the one that reaches total. That one moves the batch active
-- -> completed, enqueues the hook job (the template stamped at batch creation; payload shape in
-- V002's comment on batches) and sets hook_job_id, all in the caller's transaction. A batch already
-- completed (by S7's repair, say) is left alone. No job_events rows.
-- Returns the number of batches this call completed.
CREATE FUNCTION {schema}.settle_batch_members(
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
             AS completes,
           b.hook_actor, b.hook_queue, b.hook_priority, b.hook_payload, b.hook_max_attempts,
           b.hook_retry_backoff, b.hook_retry_base_ms, b.hook_retry_cap_ms, b.hook_retry_jitter
      FROM {schema}.batches b
      JOIN delta d ON d.batch_id = b.id
     WHERE b.status = 'active'
     ORDER BY b.id
       FOR UPDATE OF b
  ),
  hook AS (
    INSERT INTO {schema}.jobs
      (actor, queue, status, priority, payload, run_at, max_attempts,
       retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter)
    SELECT hook_actor, hook_queue, 'pending', hook_priority,
           jsonb_build_object(
             'batch_id', id, 'total', total, 'succeeded', succeeded, 'failed', failed,
             'cancelled', cancelled, 'payload', hook_payload),
           clock_timestamp(), hook_max_attempts,
           hook_retry_backoff, hook_retry_base_ms, hook_retry_cap_ms, hook_retry_jitter
      FROM locked
     WHERE completes AND hook_actor IS NOT NULL
     ORDER BY id
    RETURNING id, queue, (payload ->> 'batch_id')::bigint AS batch_id
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
