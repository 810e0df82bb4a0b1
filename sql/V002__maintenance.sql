-- TaskQ schema, version 2: the tables the maintenance sweeps repair (L7, L9, M4, E2, S4-S9, S11).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.

-- L7 / S4 / S9 / S10: concurrency-limit reservation slots with leases.
--
-- One row per slot of a scope: a queue cap, an actor cap, or a keyed cap ("at most 3 running jobs
-- per customer id", scope_name then names the key, e.g. 'send_invoice:customer-42'). A slot row is
-- free when job_id IS NULL and held while job_id, lease_token and lease_expires_at are set. The
-- holder renews lease_expires_at matching on lease_token (D9); a holder that died stops renewing,
-- and S4 frees the slot once the lease passed. Slot rows of queue and actor caps are few and live
-- forever; keyed rows are as many as there are keys, so they are marked keyed and S9 deletes the
-- ones unused past TASKQ_KEYED_ROW_RECLAIM_PERIOD.
CREATE TABLE {schema}.reservation_slots (
  id                bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  scope_kind        text        NOT NULL,
  scope_name        text        NOT NULL,
  -- 0 .. cap - 1: the cap is enforced by the number of slot rows of a scope.
  slot              integer     NOT NULL,
  job_id            bigint,
  lease_token       bigint,
  lease_expires_at  timestamptz,
  keyed             boolean     NOT NULL,
  -- Set on every acquire and renewal; S9's idleness clock.
  last_used_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  created_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT reservation_slots_scope_unique UNIQUE (scope_kind, scope_name, slot),
  CONSTRAINT reservation_slots_scope_kind_check CHECK (scope_kind IN ('queue', 'actor', 'key')),
  CONSTRAINT reservation_slots_keyed_check CHECK (keyed = (scope_kind = 'key')),
  CONSTRAINT reservation_slots_slot_check CHECK (slot >= 0),
  CONSTRAINT reservation_slots_holder_check CHECK (
    (job_id IS NULL) = (lease_token IS NULL) AND (job_id IS NULL) = (lease_expires_at IS NULL))
);
-- S4: held slots by lease expiry.
CREATE INDEX reservation_slots_lease_idx ON {schema}.reservation_slots (lease_expires_at)
  WHERE lease_expires_at IS NOT NULL;
-- S9: keyed slots by idleness.
CREATE INDEX reservation_slots_keyed_idle_idx ON {schema}.reservation_slots (last_used_at)
  WHERE keyed;
-- Release on completion, and S1's reclaim, find a job's slots.
CREATE INDEX reservation_slots_job_idx ON {schema}.reservation_slots (job_id)
  WHERE job_id IS NOT NULL;

-- M4 / S9: the PostgreSQL fallback of the sliding-window rate limit.
--
-- One row per limit name; callers serialise on the keyed advisory lock taskq:{schema}:sw:{name}
-- and keep in window_log the instants admitted inside the window, oldest first (entries older
-- than the window are trimmed on each call). Keyed limits (one row per key) are marked so S9 can
-- delete the rows unused past TASKQ_KEYED_ROW_RECLAIM_PERIOD.
CREATE TABLE {schema}.rate_limit_buckets (
  name          text          PRIMARY KEY,
  keyed         boolean       NOT NULL DEFAULT false,
  window_log    timestamptz[] NOT NULL DEFAULT '{}',
  last_used_at  timestamptz   NOT NULL DEFAULT clock_timestamp(),
  created_at    timestamptz   NOT NULL DEFAULT clock_timestamp()
);
-- S9: keyed buckets by idleness.
CREATE INDEX rate_limit_buckets_keyed_idle_idx ON {schema}.rate_limit_buckets (last_used_at)
  WHERE keyed;

-- L9 / S7: batches of jobs with a completion hook.
--
-- jobs.batch_id (V001) names the batch; it deliberately has no foreign key: prune (S11) moves
-- terminal members into jobs_archive, which carries no foreign keys, so the reference could only
-- ever be half enforced, and a key check on every member insert would take a KEY SHARE lock on
-- the batch row that the completion path locks FOR UPDATE. Members are counted in both jobs and
-- jobs_archive.
--
-- The hook is a job template stamped at batch creation (actor, queue, priority, payload and the
-- L3 retry columns), so the completion path and S7's repair enqueue the same job. The hook job's
-- payload is
--   {"batch_id": id, "total": n, "succeeded": n, "failed": n, "cancelled": n, "payload": hook_payload}
-- where failed counts failed and crashed members. The batch moves active -> completed exactly once:
-- whoever completes it locks the row, checks status = 'active', enqueues the hook and sets
-- completed_at and hook_job_id in the same transaction.
CREATE TABLE {schema}.batches (
  id                   bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  status               text        NOT NULL DEFAULT 'active',
  -- Members the batch was created with; it completes once this many members are terminal.
  total                integer     NOT NULL,
  -- Member outcomes, final once completed (failed includes crashed).
  succeeded            integer     NOT NULL DEFAULT 0,
  failed               integer     NOT NULL DEFAULT 0,
  cancelled            integer     NOT NULL DEFAULT 0,
  hook_actor           text,
  hook_queue           text,
  hook_priority        smallint    NOT NULL DEFAULT 0,
  hook_payload         jsonb       NOT NULL DEFAULT '{}'::jsonb,
  hook_max_attempts    integer     NOT NULL DEFAULT 20,
  hook_retry_backoff   text        NOT NULL DEFAULT 'exponential',
  hook_retry_base_ms   bigint      NOT NULL DEFAULT 1000,
  hook_retry_cap_ms    bigint      NOT NULL DEFAULT 600000,
  hook_retry_jitter    double precision NOT NULL DEFAULT 0.2,
  hook_job_id          bigint,
  hook_enqueued_at     timestamptz,
  created_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  completed_at         timestamptz,
  CONSTRAINT batches_status_check CHECK (status IN ('active', 'completed')),
  CONSTRAINT batches_total_check CHECK (total >= 0),
  CONSTRAINT batches_counts_check CHECK (succeeded >= 0 AND failed >= 0 AND cancelled >= 0),
  CONSTRAINT batches_hook_check CHECK ((hook_actor IS NULL) = (hook_queue IS NULL)),
  CONSTRAINT batches_hook_retry_backoff_check
    CHECK (hook_retry_backoff IN ('exponential', 'linear', 'constant')),
  CONSTRAINT batches_hook_max_attempts_check CHECK (hook_max_attempts >= 1),
  CONSTRAINT batches_completed_check CHECK ((status = 'completed') = (completed_at IS NOT NULL))
);
-- S7: the active batches.
CREATE INDEX batches_active_idx ON {schema}.batches (id) WHERE status = 'active';
-- S7 counts members that prune already archived.
CREATE INDEX jobs_archive_batch_idx ON {schema}.jobs_archive (batch_id) WHERE batch_id IS NOT NULL;

-- E2 / S8: one row per stamp the maintenance sweeps keep.
--
--   event_prune_watermark          value = the highest job_events.event_id S8 ever deleted.
--   reclaim_event_prune_watermark  (writer_xid, value) = the highest feed position (D12 order:
--                                  writer_xid, then event_id) of a deleted kind = 'reclaimed' row;
--                                  a watch_reclaims cursor below it may have lost events (E2).
-- Both only ever grow: S8 writes GREATEST(stored, new) in the transaction that deletes the rows.
CREATE TABLE {schema}.maintenance_state (
  key         text        PRIMARY KEY,
  value       bigint      NOT NULL,
  writer_xid  xid8,
  stamped_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
INSERT INTO {schema}.maintenance_state (key, value, writer_xid) VALUES
  ('event_prune_watermark', 0, NULL),
  ('reclaim_event_prune_watermark', 0, '0'::xid8);

-- S8: the crash-reclaim slice is kept 100x longer than other events; its own expiry index keeps
-- the sweep from walking the whole slice.
CREATE INDEX job_events_reclaimed_occurred_idx ON {schema}.job_events (occurred_at)
  WHERE kind = 'reclaimed';
