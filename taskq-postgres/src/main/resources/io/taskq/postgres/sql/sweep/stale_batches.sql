-- S7 complete_stale_batches. {schema} is the validated, quoted schema (M3).

-- name: complete_stale_batches
-- S7 / L9: complete active batches all of whose members are terminal but whose completion was
-- lost, enqueueing each one's hook job in the same statement, so the hook and the status change
-- commit together. Exactly once: the batch row is locked (FOR UPDATE SKIP LOCKED, U2) and
-- status = 'active' is re-checked on its newest version under the lock, so a batch completed by
-- another transaction (the completion path, or a second leader) is skipped.
-- Members are counted in jobs and jobs_archive (prune may have archived early finishers); a batch
-- completes once `total` members are terminal; failed counts failed and crashed members.
-- The hook payload's shape is fixed by V002's comment on batches. No job_events rows.
-- B4: writes use clock_timestamp().
-- Binds: batch size.
WITH candidate AS (
  SELECT b.id, b.total, b.hook_actor, b.hook_queue, b.hook_priority, b.hook_payload,
         b.hook_max_attempts, b.hook_retry_backoff, b.hook_retry_base_ms, b.hook_retry_cap_ms,
         b.hook_retry_jitter
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
   GROUP BY c.id, c.total, c.hook_actor, c.hook_queue, c.hook_priority, c.hook_payload,
            c.hook_max_attempts, c.hook_retry_backoff, c.hook_retry_base_ms, c.hook_retry_cap_ms,
            c.hook_retry_jitter
  HAVING count(m.status) >= c.total
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
    FROM complete
   WHERE hook_actor IS NOT NULL
  RETURNING id, (payload ->> 'batch_id')::bigint AS batch_id
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
SELECT count(*) FROM done
