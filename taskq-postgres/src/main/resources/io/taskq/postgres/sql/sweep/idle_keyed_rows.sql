-- S9 sweep_idle_keyed_rows. {schema} is the validated, quoted schema (M3).

-- name: delete_idle_keyed_rows
-- S9: delete keyed rows unused past TASKQ_KEYED_ROW_RECLAIM_PERIOD, at most batch-size rows per
-- table (256 by default), both tables in this one statement. A keyed slot still held under a live
-- lease is never deleted, however old its last use: only free slots and slots whose holder's lease
-- passed (the rows a dead worker left behind). No job_events rows.
-- B4: select on statement_timestamp(). U2: SKIP LOCKED.
-- Binds: reclaim period in microseconds, batch size, reclaim period in microseconds, batch size.
WITH idle_slot AS (
  SELECT id
    FROM {schema}.reservation_slots
   WHERE keyed
     AND last_used_at < statement_timestamp() - (? * interval '1 microsecond')
     AND (lease_expires_at IS NULL OR lease_expires_at < statement_timestamp())
   ORDER BY last_used_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
),
idle_bucket AS (
  SELECT name
    FROM {schema}.rate_limit_buckets
   WHERE keyed
     AND last_used_at < statement_timestamp() - (? * interval '1 microsecond')
   ORDER BY last_used_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
),
slot_gone AS (
  DELETE FROM {schema}.reservation_slots s USING idle_slot i WHERE s.id = i.id RETURNING 1
),
bucket_gone AS (
  DELETE FROM {schema}.rate_limit_buckets b USING idle_bucket i WHERE b.name = i.name RETURNING 1
)
SELECT (SELECT count(*) FROM slot_gone) AS reservation_slots,
       (SELECT count(*) FROM bucket_gone) AS rate_limit_buckets
