-- S6 cleanup_stale_workers. {schema} is the validated, quoted schema (M3).
--
-- Deleting a workers row sets job_attempts.worker_id to NULL on every attempt it ran (ON DELETE
-- SET NULL, L10): an unbounded fan-out, since a long-lived worker may have run millions. So the
-- batch first detaches at most batch-size attempts of stale workers itself, then deletes at most
-- batch-size stale workers that no attempt references any more (their fan-out is then empty). A
-- worker with many attempts is detached across batches and deleted by the batch that finishes it.

-- name: detach_stale_attempts
-- S6: bounded part of the fan-out. B4: select on statement_timestamp(). U2: SKIP LOCKED.
-- Binds: stale-after in microseconds, batch size.
WITH detached AS (
  SELECT a.id
    FROM {schema}.job_attempts a
    JOIN {schema}.workers w ON w.id = a.worker_id
   WHERE w.heartbeat_at < statement_timestamp() - (? * interval '1 microsecond')
   LIMIT ?
     FOR UPDATE OF a SKIP LOCKED
)
UPDATE {schema}.job_attempts a
   SET worker_id = NULL
  FROM detached
 WHERE a.id = detached.id

-- name: delete_stale_workers
-- S6: stale workers without attempts left. A stale worker that still owns running jobs is deleted
-- too: S1's heartbeat arm reclaims jobs whose owner's heartbeat is stale or whose owner row is gone.
-- Binds: stale-after in microseconds, batch size.
WITH stale AS (
  SELECT w.id
    FROM {schema}.workers w
   WHERE w.heartbeat_at < statement_timestamp() - (? * interval '1 microsecond')
     AND NOT EXISTS (SELECT 1 FROM {schema}.job_attempts a WHERE a.worker_id = w.id)
   ORDER BY w.heartbeat_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
)
DELETE FROM {schema}.workers w
 USING stale
 WHERE w.id = stale.id
