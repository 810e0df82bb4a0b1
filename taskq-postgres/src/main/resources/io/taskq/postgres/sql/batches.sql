-- Batches (L9). Used by io.taskq.postgres.internal.client.BatchWriter. {schema} is the validated,
-- quoted schema (M3); everything else is bound.

-- name: insert_batch
-- L9: the batch row, with the hook template stamped into it (V002's comment on batches).
-- A batch without a hook stores NULL actor and queue; the other hook columns keep their values.
-- V010: the template's labels too (an enqueue interceptor's trace context reaches the hook job).
-- Binds: total, hook actor, hook queue, priority, payload, max attempts, backoff, base ms, cap ms,
-- jitter, labels.
INSERT INTO {schema}.batches
  (total, hook_actor, hook_queue, hook_priority, hook_payload, hook_max_attempts,
   hook_retry_backoff, hook_retry_base_ms, hook_retry_cap_ms, hook_retry_jitter, hook_labels)
VALUES (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?::jsonb)
RETURNING id

-- name: attach_members
-- L9: the members join the batch in the transaction that inserted them, so no worker can see a
-- member without its batch (the rows are invisible until commit).
-- Binds: batch id, member ids bigint[].
UPDATE {schema}.jobs
   SET batch_id = ?
 WHERE id = ANY (?::bigint[])
   AND batch_id IS NULL

-- name: find_batch
SELECT id, status, total, succeeded, failed, cancelled, hook_actor, hook_job_id, created_at,
       completed_at
  FROM {schema}.batches
 WHERE id = ?
