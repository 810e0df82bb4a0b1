-- S7 complete_stale_batches. {schema} is the validated, quoted schema (M3).

-- name: complete_stale_batches
-- S7 / L9: complete active batches all of whose members are terminal but whose completion was
-- lost, enqueueing each one's hook job in the same statement (enqueue_batch_hooks, V009: the one
-- place a hook job is built, shared with the completion path), so the hook and the status change
-- commit together. Exactly once: the batch row is locked (FOR UPDATE SKIP LOCKED, U2) and
-- status = 'active' is re-checked on its newest version under the lock, so a batch completed by
-- another transaction (the completion path, or a second leader) is skipped.
-- Members are counted in jobs and jobs_archive (prune may have archived early finishers); a batch
-- completes once `total` members are terminal; failed counts failed and crashed members.
-- The hook payload's shape is fixed by V002's comment on batches. No job_events rows.
-- B4: writes use clock_timestamp().
-- Binds: batch size.
WITH candidate AS (
  SELECT b.id, b.total
    FROM {schema}.batches b
   WHERE b.status = 'active'
     AND NOT EXISTS (
           SELECT 1
             FROM {schema}.jobs j
            WHERE j.batch_id = b.id
              AND j.status IN ('scheduled', 'pending', 'running'))
     -- With no open member left, every member counted here is terminal. Checked before the LIMIT
     -- so batches still short of their total never crowd completable ones out of the batch.
     AND (SELECT count(*) FROM {schema}.jobs j WHERE j.batch_id = b.id)
       + (SELECT count(*) FROM {schema}.jobs_archive a WHERE a.batch_id = b.id) >= b.total
   ORDER BY b.id
   LIMIT ?
     FOR UPDATE SKIP LOCKED
),
member AS (
  SELECT batch_id, status FROM {schema}.jobs
   WHERE batch_id IN (SELECT id FROM candidate)
  UNION ALL
  SELECT batch_id, status FROM {schema}.jobs_archive
   WHERE batch_id IN (SELECT id FROM candidate)
),
complete AS (
  SELECT c.*,
         count(m.status) FILTER (WHERE m.status = 'succeeded') AS succeeded,
         count(m.status) FILTER (WHERE m.status IN ('failed', 'crashed')) AS failed,
         count(m.status) FILTER (WHERE m.status = 'cancelled') AS cancelled
    FROM candidate c
    LEFT JOIN member m ON m.batch_id = c.id
   GROUP BY c.id, c.total
  HAVING count(m.status) >= c.total
),
hook AS MATERIALIZED (
  SELECT h.id, h.batch_id
    FROM (SELECT array_agg(id ORDER BY id) AS ids,
                 array_agg(succeeded ORDER BY id) AS succeeded,
                 array_agg(failed ORDER BY id) AS failed,
                 array_agg(cancelled ORDER BY id) AS cancelled
            FROM complete) c,
         LATERAL {schema}.enqueue_batch_hooks(c.ids, c.succeeded, c.failed, c.cancelled) h
),
done AS (
  UPDATE {schema}.batches b
     SET status = 'completed',
         succeeded = c.succeeded,
         failed = c.failed,
         cancelled = c.cancelled,
         completed_at = clock_timestamp(),
         hook_job_id = h.id,
         hook_enqueued_at = CASE WHEN h.id IS NULL THEN NULL ELSE clock_timestamp() END
    FROM complete c
    LEFT JOIN hook h ON h.batch_id = c.id
   WHERE b.id = c.id
  RETURNING b.id
)
SELECT count(*) AS completed FROM done
