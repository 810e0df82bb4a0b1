-- TaskQ schema, version 12: the leader's sweep health, readable from any process (A8, W1).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- Until now each sweep's health (last success, breaker tier, batch size, stall) lived only in the
-- leader's memory and its /ready body. The maintenance leader now writes one row per sweep here:
-- one multi-row upsert at the end of each tick of the loop that runs the sweep (the sweep loop
-- every TASKQ_SWEEP_INTERVAL, the 1-second loop for S3), never on a job's path. A reader (the
-- operations API, `taskq status`, the dashboard overview) compares written_at with its own clock
-- and with loop_period_ms to see how fresh the row is, and pg_locks to see whether any leader
-- holds the lock now.
--
-- A handful of rows, rewritten in place: no index besides the primary key, so every update can
-- be a HOT update, and a fill factor that leaves the room for it.
CREATE TABLE {schema}.sweep_health (
  -- The sweep_name metric label, e.g. scheduled_to_pending.
  sweep_name             text PRIMARY KEY,
  -- The guide's number (S1..S11), NULL for a sweep outside the catalog.
  sweep_id               text,
  -- Who wrote the row: the leader process ("host:pid") and the backend pid of the session that
  -- holds the leader lock (pg_locks.pid, as Operations.leader() reports it).
  leader                 text        NOT NULL,
  leader_pid             integer     NOT NULL,
  -- The last tick that ran the sweep (a daily sweep before its time does not run).
  last_run_at            timestamptz,
  last_success_at        timestamptz,
  -- The last failed run: an error class (the exception class and SQLSTATE) and the first line of
  -- its message, at most 300 characters (never the driver's detail lines, which may carry row
  -- values).
  last_error_at          timestamptz,
  last_error_class       text        CHECK (length(last_error_class) <= 200),
  last_error_message     text        CHECK (length(last_error_message) <= 300),
  -- T2: 'full' or 'reduced' for a breaker-wrapped sweep (S1-S3), 'fixed' for the others.
  breaker_tier           text        NOT NULL CHECK (breaker_tier IN ('full', 'reduced', 'fixed')),
  batch_size             integer,
  batch_size_configured  integer,
  -- Runs in a row that failed or had a batch aborted; 0 after a committed batch.
  consecutive_failures   integer     NOT NULL DEFAULT 0,
  -- O7: stalled as the leader's /ready judges it (no success for three of its own periods).
  stalled                boolean     NOT NULL DEFAULT false,
  stall_reason           text,
  -- How often the row is rewritten (its loop's period) and how often the sweep succeeds when
  -- healthy (its loop's period, or a day for the daily sweeps).
  loop_period_ms         bigint      NOT NULL,
  expected_period_ms     bigint      NOT NULL,
  written_at             timestamptz NOT NULL
) WITH (fillfactor = 50);
