-- S5 sweep_expired_results (the result TTL). {schema} is the validated, quoted schema (M3).

-- name: null_expired_results
-- S5: null stored results whose expiry passed; no job_events rows. result_expires_at is kept as
-- the record of when the result lapsed. B4: select on statement_timestamp(). U2: SKIP LOCKED.
-- Binds: batch size.
WITH expired AS (
  SELECT id
    FROM {schema}.jobs
   WHERE result IS NOT NULL
     AND result_expires_at < statement_timestamp()
   ORDER BY result_expires_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
)
UPDATE {schema}.jobs j
   SET result = NULL
  FROM expired
 WHERE j.id = expired.id
