-- TaskQ schema, version 3: the crash-reclaim event feed's retention watermark (E2, S8, D12).
--
-- The feed (io.taskq.postgres.ReclaimEventFeed) reads the prune watermark S8 stamps when it
-- deletes job_events rows: a consumer whose cursor sorts below the highest deleted crash-reclaim
-- event has lost events and is stopped with EventRetentionGapException.
--
-- The maintenance sweeps' migration (V002) creates this table too; this file only makes sure it
-- exists with the same shape, so the feed works whichever of the two a schema got first. Both
-- statements are no-ops after V002.
--
--   reclaim_event_prune_watermark  (writer_xid, value) = the highest feed position (D12 order:
--                                  writer_xid, then event_id) of a deleted kind = 'reclaimed' row.
--                                  Only ever grows. (0, 0) = nothing pruned yet.

CREATE TABLE IF NOT EXISTS {schema}.maintenance_state (
  key         text        PRIMARY KEY,
  value       bigint      NOT NULL,
  writer_xid  xid8,
  stamped_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);

INSERT INTO {schema}.maintenance_state (key, value, writer_xid)
VALUES ('reclaim_event_prune_watermark', 0, '0'::xid8)
ON CONFLICT (key) DO NOTHING;
