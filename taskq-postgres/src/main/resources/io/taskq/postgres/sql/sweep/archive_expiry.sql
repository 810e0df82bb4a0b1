-- S11 archive expiry: old archive rows are deleted. {schema} is the validated, quoted schema (M3).

-- name: try_lock
-- M1: the transaction-scoped advisory lock taskq:archive_expiry:{schema}; a second process gets
-- false and skips the batch. Released by the batch's COMMIT or ROLLBACK.
-- Binds: the lock key.
SELECT pg_try_advisory_xact_lock(?)

-- name: delete_expired_archive
-- S11: hard-delete at most batch-size jobs_archive rows archived before now - archiveRetention.
-- No job_events rows. B4: select on statement_timestamp(). U2: SKIP LOCKED.
-- Binds: archiveRetention in microseconds, batch size.
WITH expired AS (
  SELECT id
    FROM {schema}.jobs_archive
   WHERE archived_at < statement_timestamp() - (? * interval '1 microsecond')
   ORDER BY archived_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
)
DELETE FROM {schema}.jobs_archive a
 USING expired
 WHERE a.id = expired.id
