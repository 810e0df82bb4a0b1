-- The crash-reclaim event feed (E1-E4, D12). {schema} is the validated, quoted schema (M3).
-- Used by io.taskq.postgres.internal.feed.FeedReader; the reasoning is in
-- docs/architecture.md ("The crash-reclaim feed: deriving the watermark").

-- name: poll
-- D12: the feed's order and cursor are (writer_xid, event_id). Only rows whose writer is below
-- the statement snapshot's xmin are read: every transaction below xmin has committed or aborted,
-- so no row can still commit at a position at or before any row returned here.
-- E1: each row says how long until it is older than the visibility delay (<= 0: it is); the
-- reader delivers only the prefix of rows that are, so a young row holds back the rows after it.
-- E2: the retention watermark comes from the same statement, so the same snapshot as the rows:
-- either the rows a prune deleted are missing AND its watermark is seen, or neither.
-- Always one row at least: the watermark and the held-back flag, with NULL event columns when
-- the page is empty.
-- Index: job_events_feed_idx (writer_xid, event_id) WHERE kind = 'reclaimed', scanned from the
-- cursor in order, so LIMIT stops the scan.
-- Binds: visibility delay (microseconds), cursor writer_xid, cursor event_id, limit.
WITH mark AS (
  SELECT COALESCE(max(s.writer_xid), '0'::xid8) AS mark_xid, COALESCE(max(s.value), 0) AS mark_id
    FROM {schema}.maintenance_state s
   WHERE s.key = 'reclaim_event_prune_watermark'
),
-- D12: committed rows at or above xmin wait for an older transaction to end; nobody notifies when
-- it does, so the watch polls again soon. Such rows always sort after the cursor.
-- Written as max() rather than EXISTS so the plan is always one backward step on
-- job_events_feed_idx: the planner cannot estimate the xmin comparison, and an EXISTS over it
-- may be planned as a sequential scan.
held AS (
  SELECT COALESCE((SELECT max(e.writer_xid)
                     FROM {schema}.job_events e
                    WHERE e.kind = 'reclaimed')
                  >= pg_snapshot_xmin(pg_current_snapshot()), false) AS held_back
),
page AS (
  SELECT e.event_id, e.writer_xid, e.job_id, e.actor, e.queue, e.attempt, e.disposition,
         e.error_class, e.error_message, e.occurred_at,
         (EXTRACT(EPOCH FROM e.occurred_at - statement_timestamp()) * 1000000)::bigint
           + ?::bigint AS ripens_in_us
    FROM {schema}.job_events e
   WHERE e.kind = 'reclaimed'
     AND (e.writer_xid, e.event_id) > (?::text::xid8, ?::bigint)
     AND e.writer_xid < pg_snapshot_xmin(pg_current_snapshot())
   ORDER BY e.writer_xid, e.event_id
   LIMIT ?
)
SELECT m.mark_xid::text AS mark_xid, m.mark_id, h.held_back,
       p.event_id, p.writer_xid::text AS writer_xid, p.job_id, p.actor, p.queue, p.attempt,
       p.disposition, p.error_class, p.error_message, p.occurred_at, p.ripens_in_us
  FROM mark m
 CROSS JOIN held h
  LEFT JOIN page p ON true
 ORDER BY p.writer_xid, p.event_id

-- name: lag
-- D12: how far the feed is held back. Committed reclaim events at or above the snapshot's xmin
-- are visible but not yet deliverable; the transaction holding xmin back is the running one with
-- the oldest transaction id (a backend, or a prepared transaction, anywhere in the cluster).
-- Ages are in microseconds; a blocker's start time is NULL when this role may not see it.
WITH held AS (
  SELECT count(*) AS events, min(e.occurred_at) AS oldest
    FROM {schema}.job_events e
   WHERE e.kind = 'reclaimed'
     AND e.writer_xid >= pg_snapshot_xmin(pg_current_snapshot())
),
blocker AS (
  SELECT b.pid, b.since
    FROM (SELECT a.pid, a.xact_start AS since, age(a.backend_xid) AS xid_age
            FROM pg_stat_activity a
           WHERE a.backend_xid IS NOT NULL
             AND a.pid <> pg_backend_pid()
          UNION ALL
          SELECT NULL::integer, p.prepared, age(p.transaction)
            FROM pg_prepared_xacts p) b
   ORDER BY b.xid_age DESC
   LIMIT 1
)
SELECT h.events,
       COALESCE((EXTRACT(EPOCH FROM statement_timestamp() - h.oldest) * 1000000)::bigint, 0)
         AS oldest_event_age_us,
       b.pid AS blocker_pid,
       (EXTRACT(EPOCH FROM statement_timestamp() - b.since) * 1000000)::bigint AS blocker_age_us
  FROM held h
  LEFT JOIN blocker b ON true
