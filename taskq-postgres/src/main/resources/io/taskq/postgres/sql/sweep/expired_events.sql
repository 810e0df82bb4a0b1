-- S8 sweep_expired_events (the event TTL). {schema} is the validated, quoted schema (M3).

-- name: delete_expired_events
-- S8: delete job_events rows older than TASKQ_EVENT_RETENTION_PERIOD whatever their job's status,
-- except the crash-reclaim slice (kind = 'reclaimed'), kept to 100x that age. At most batch-size
-- rows in all, older kinds first. Writes no job_events rows.
-- E2: in the same statement (so the same transaction) stamp the prune watermarks, only upwards:
--   event_prune_watermark          = GREATEST(stored, highest event_id deleted);
--   reclaim_event_prune_watermark  = the highest (writer_xid, event_id) of a deleted reclaimed row
--                                    when it is above the stored one (the feed's order, D12).
-- B4: select on statement_timestamp(). U2: SKIP LOCKED, so two leaders never both delete a row.
-- Binds: retention in microseconds, batch size, reclaim-slice retention in microseconds,
-- batch size.
WITH other_kind AS (
  SELECT event_id
    FROM {schema}.job_events
   WHERE kind <> 'reclaimed'
     AND occurred_at < statement_timestamp() - (? * interval '1 microsecond')
   ORDER BY occurred_at
   LIMIT ?
     FOR UPDATE SKIP LOCKED
),
reclaim_slice AS (
  SELECT event_id
    FROM {schema}.job_events
   WHERE kind = 'reclaimed'
     AND occurred_at < statement_timestamp() - (? * interval '1 microsecond')
   ORDER BY occurred_at
   LIMIT GREATEST(0, ? - (SELECT count(*) FROM other_kind))
     FOR UPDATE SKIP LOCKED
),
gone AS (
  DELETE FROM {schema}.job_events e
   WHERE e.event_id IN (SELECT event_id FROM other_kind UNION ALL SELECT event_id FROM reclaim_slice)
  RETURNING e.event_id, e.kind, e.writer_xid
),
event_mark AS (
  INSERT INTO {schema}.maintenance_state AS s (key, value)
  SELECT 'event_prune_watermark', max(event_id) FROM gone HAVING count(*) > 0
  ON CONFLICT (key) DO UPDATE
     SET value = GREATEST(s.value, excluded.value), stamped_at = clock_timestamp()
),
reclaim_mark AS (
  INSERT INTO {schema}.maintenance_state AS s (key, value, writer_xid)
  SELECT 'reclaim_event_prune_watermark', event_id, writer_xid
    FROM gone
   WHERE kind = 'reclaimed'
   ORDER BY writer_xid DESC, event_id DESC
   LIMIT 1
  ON CONFLICT (key) DO UPDATE
     SET value = excluded.value, writer_xid = excluded.writer_xid, stamped_at = clock_timestamp()
   WHERE s.writer_xid IS NULL OR (excluded.writer_xid, excluded.value) > (s.writer_xid, s.value)
)
SELECT count(*) AS deleted FROM gone
