-- TaskQ schema, version 1: the job lifecycle (L1-L6, L8, L10, U1).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3). A user applying this file with their own migration tool
-- replaces {schema} with their quoted schema name, e.g. "taskq".
--
-- Times: every timestamp is timestamptz and comes from the database clock (L4).

CREATE TABLE {schema}.workers (
  id            text        PRIMARY KEY,
  hostname      text        NOT NULL,
  pid           bigint      NOT NULL,
  queues        text[]      NOT NULL,
  concurrency   integer     NOT NULL,
  started_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  heartbeat_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- S6 stale-worker sweep.
CREATE INDEX workers_heartbeat_idx ON {schema}.workers (heartbeat_at);

CREATE TABLE {schema}.actor_config (
  actor         text        PRIMARY KEY,
  queue         text        NOT NULL,
  enabled       boolean     NOT NULL DEFAULT true,
  registered_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE SEQUENCE {schema}.lease_token_seq;

CREATE TABLE {schema}.jobs (
  id                   bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  actor                text        NOT NULL,
  queue                text        NOT NULL,
  status               text        NOT NULL,
  -- Lower runs first; 0 is the default.
  priority             smallint    NOT NULL DEFAULT 0,
  payload              jsonb       NOT NULL,
  labels               jsonb       NOT NULL DEFAULT '{}'::jsonb,
  run_at               timestamptz NOT NULL,
  -- Number of attempts started so far; the next claim makes it attempt + 1.
  attempt              integer     NOT NULL DEFAULT 0,
  max_attempts         integer     NOT NULL,
  -- L3: the retry policy stamped at enqueue; every reschedule goes through it.
  retry_backoff        text        NOT NULL,
  retry_base_ms        bigint      NOT NULL,
  retry_cap_ms         bigint      NOT NULL,
  retry_jitter         double precision NOT NULL,
  -- schedule_to_close deadline (S2).
  deadline_at          timestamptz,
  -- L4 / D9: lease, owner and fencing token of the current attempt.
  locked_by            text,
  lock_expires_at      timestamptz,
  lease_token          bigint,
  -- L8: a cancel requested while running.
  cancel_requested_at  timestamptz,
  -- L6: unique_for identity and the end of its window.
  unique_key           text,
  unique_until         timestamptz,
  -- L5: result with its expiry, and the last error.
  result               jsonb,
  result_expires_at    timestamptz,
  error_class          text,
  error_message        text,
  error_stack          text,
  batch_id             bigint,
  created_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  started_at           timestamptz,
  finished_at          timestamptz,
  CONSTRAINT jobs_status_check CHECK (status IN
    ('scheduled', 'pending', 'running', 'succeeded', 'failed', 'crashed', 'cancelled')),
  CONSTRAINT jobs_retry_backoff_check CHECK (retry_backoff IN ('exponential', 'linear', 'constant')),
  CONSTRAINT jobs_max_attempts_check CHECK (max_attempts >= 1),
  CONSTRAINT jobs_running_lease_check CHECK
    (status <> 'running' OR (locked_by IS NOT NULL AND lock_expires_at IS NOT NULL AND lease_token IS NOT NULL))
);

-- Claim: due pending jobs in (priority, run_at, id) order, FOR UPDATE SKIP LOCKED.
CREATE INDEX jobs_claim_idx ON {schema}.jobs (priority, run_at, id) WHERE status = 'pending';
-- S3 scheduled_to_pending.
CREATE INDEX jobs_scheduled_idx ON {schema}.jobs (run_at) WHERE status = 'scheduled';
-- S1 lease arm, and the heartbeat's lease renewal by owner.
CREATE INDEX jobs_running_lease_idx ON {schema}.jobs (lock_expires_at) WHERE status = 'running';
CREATE INDEX jobs_running_owner_idx ON {schema}.jobs (locked_by) WHERE status = 'running';
-- S2 deadline exceeded.
CREATE INDEX jobs_deadline_idx ON {schema}.jobs (deadline_at)
  WHERE deadline_at IS NOT NULL AND status IN ('scheduled', 'pending', 'running');
-- S5 expired results.
CREATE INDEX jobs_result_expiry_idx ON {schema}.jobs (result_expires_at) WHERE result IS NOT NULL;
-- L6 unique_for lookup.
CREATE INDEX jobs_unique_idx ON {schema}.jobs (actor, unique_key, unique_until) WHERE unique_key IS NOT NULL;
-- S11 prune of terminal jobs.
CREATE INDEX jobs_finished_idx ON {schema}.jobs (finished_at)
  WHERE status IN ('succeeded', 'failed', 'crashed', 'cancelled');
CREATE INDEX jobs_batch_idx ON {schema}.jobs (batch_id) WHERE batch_id IS NOT NULL;

-- One row per finished attempt (success, failure, reclaim, deadline, cancel).
CREATE TABLE {schema}.job_attempts (
  id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id         bigint      NOT NULL,
  attempt        integer     NOT NULL,
  worker_id      text        REFERENCES {schema}.workers (id) ON DELETE SET NULL,
  outcome        text        NOT NULL,
  error_class    text,
  error_message  text,
  error_stack    text,
  started_at     timestamptz,
  finished_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX job_attempts_job_idx ON {schema}.job_attempts (job_id);
-- The ON DELETE SET NULL fan-out of S6 looks attempts up by worker.
CREATE INDEX job_attempts_worker_idx ON {schema}.job_attempts (worker_id) WHERE worker_id IS NOT NULL;

-- Lifecycle events; the crash-reclaim feed (E1-E4) reads the kind = 'reclaimed' slice.
CREATE TABLE {schema}.job_events (
  event_id     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id       bigint      NOT NULL,
  kind         text        NOT NULL,
  actor        text        NOT NULL,
  queue        text        NOT NULL,
  attempt      integer     NOT NULL,
  disposition  text,
  error_class  text,
  error_message text,
  -- B4: clock_timestamp() plus the row's microsecond ladder, written by the statement.
  occurred_at  timestamptz NOT NULL,
  -- D12: the writer's transaction id orders the feed.
  writer_xid   xid8        NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX job_events_occurred_idx ON {schema}.job_events (occurred_at);
CREATE INDEX job_events_feed_idx ON {schema}.job_events (writer_xid, event_id) WHERE kind = 'reclaimed';
CREATE INDEX job_events_job_idx ON {schema}.job_events (job_id);

-- Terminal jobs moved out of the hot table by the daily prune (S11).
CREATE TABLE {schema}.jobs_archive (
  LIKE {schema}.jobs INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
  archived_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (id)
);
CREATE INDEX jobs_archive_archived_idx ON {schema}.jobs_archive (archived_at);

-- L3: the retry delay of attempt n under a job's stamped policy, capped by max_retry_backoff.
-- Mirrors io.taskq.RetryPolicy exactly (a test pins the two together):
--   exponential: base * 2^(n-1); linear: base * n; constant: base;
--   then min(cap, max_backoff); then jitter takes off up to `jitter` of it: d * (1 - jitter * u).
CREATE FUNCTION {schema}.retry_delay(
  backoff text, base_ms bigint, cap_ms bigint, jitter double precision,
  attempt integer, max_backoff_ms bigint, u double precision)
RETURNS interval
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT make_interval(secs => (
    LEAST(
      CASE backoff
        WHEN 'exponential' THEN base_ms::double precision * power(2::double precision, LEAST(GREATEST(attempt, 1) - 1, 62))
        WHEN 'linear'      THEN base_ms::double precision * GREATEST(attempt, 1)
        ELSE base_ms::double precision
      END,
      cap_ms::double precision,
      max_backoff_ms::double precision
    ) * (1 - jitter * u)
  ) / 1000.0)
$$;
