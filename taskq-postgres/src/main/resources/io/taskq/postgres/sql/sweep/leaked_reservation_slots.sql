-- S4 sweep_leaked_reservation_slots. {schema} is the validated, quoted schema (M3).

-- name: free_expired_slots
-- S4: free held slots whose lease passed; one statement per batch, no job_events rows.
-- B4: select on statement_timestamp(). U2: FOR UPDATE SKIP LOCKED, so a second leader steps over
-- the rows this batch holds. last_used_at is left alone: freeing is not a use, so S9 can still
-- reclaim a keyed slot whose holder died.
-- Binds: batch size.
WITH leaked AS (
  SELECT id
    FROM {schema}.reservation_slots
   WHERE lease_expires_at < statement_timestamp()
   ORDER BY lease_expires_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
)
UPDATE {schema}.reservation_slots s
   SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL
  FROM leaked
 WHERE s.id = leaked.id
