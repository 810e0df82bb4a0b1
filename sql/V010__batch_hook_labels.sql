-- TaskQ schema, version 10: a batch's completion hook keeps its template's labels (L9, P6).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- Until now the hook template held actor, queue, priority, payload and retry policy only, so the
-- labels an enqueue interceptor stamps on a batch's hook (the trace context of
-- taskq-opentelemetry, a tenant) never reached the hook's job. The template now keeps labels too,
-- and enqueue_batch_hooks, the one statement that builds a hook job from its template (V009),
-- copies them onto the job. Batches written before this version have no hook labels ('{}').
ALTER TABLE {schema}.batches ADD COLUMN IF NOT EXISTS hook_labels jsonb NOT NULL DEFAULT '{}'::jsonb;

-- L9: V009's enqueue_batch_hooks, unchanged but for the labels: the hook job's labels are the
-- template's. Same signature, same result; see V009 for the contract.
CREATE OR REPLACE FUNCTION {schema}.enqueue_batch_hooks(
  p_batch bigint[], p_succeeded bigint[], p_failed bigint[], p_cancelled bigint[])
RETURNS TABLE (id bigint, queue text, batch_id bigint)
LANGUAGE sql VOLATILE
AS $$
  INSERT INTO {schema}.jobs
    (actor, queue, status, priority, payload, run_at, max_attempts,
     retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, labels)
  SELECT b.hook_actor, b.hook_queue, 'pending', b.hook_priority,
         jsonb_build_object(
           'batch_id', b.id, 'total', b.total, 'succeeded', c.succeeded, 'failed', c.failed,
           'cancelled', c.cancelled, 'payload', b.hook_payload),
         clock_timestamp(), b.hook_max_attempts,
         b.hook_retry_backoff, b.hook_retry_base_ms, b.hook_retry_cap_ms, b.hook_retry_jitter,
         b.hook_labels
    FROM unnest(p_batch, p_succeeded, p_failed, p_cancelled)
           AS c(batch_id, succeeded, failed, cancelled)
    JOIN {schema}.batches b ON b.id = c.batch_id
   WHERE b.hook_actor IS NOT NULL
   ORDER BY b.id
  RETURNING id, queue, (payload ->> 'batch_id')::bigint
$$;
