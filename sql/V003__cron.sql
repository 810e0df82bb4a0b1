-- TaskQ schema, version 3: cron schedules (S12, F5, docs/cron.md).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.

-- S12 / F5: one row per schedule, keyed by its name (the API creates and changes schedules
-- idempotently by name).
--
-- A fire enqueues one job for actor with either the stored payload or the JSON a payload factory
-- registered in code under payload_factory returns (exactly one of the two is set). queue NULL
-- means the actor's queue from actor_config; the retry columns are stamped into each fired job
-- like an enqueue's (L3).
--
-- The cron loop selects enabled rows whose next_fire_at has passed, FOR UPDATE SKIP LOCKED, at
-- most TASKQ_CRON_TICK_LIMIT per tick, under the transaction lock taskq:cron:{schema}. A fire
-- advances next_fire_at and stamps last_fired_at and last_job_id, resetting consecutive_failures;
-- a failed plan (payload factory threw, no actor_config row) advances next_fire_at too, bumps
-- consecutive_failures and stores last_fire_error (sanitised: NULs escaped); reaching
-- TASKQ_CRON_AUTO_DISABLE_THRESHOLD sets enabled = false. Force-deregistration of an actor (S13)
-- disables its schedules by actor.
--
-- misfire_policy says what a schedule that missed fires (downtime, a disabled period) does:
--   fire_once  one job for the whole missed stretch, then the next fire after now (default);
--   fire_all   one job per missed fire time, one per tick, until caught up.
CREATE TABLE {schema}.cron_schedules (
  name                  text        PRIMARY KEY,
  actor                 text        NOT NULL,
  cron_expression       text        NOT NULL,
  time_zone             text        NOT NULL DEFAULT 'UTC',
  payload               jsonb,
  payload_factory       text,
  queue                 text,
  priority              smallint    NOT NULL DEFAULT 0,
  max_attempts          integer     NOT NULL DEFAULT 20,
  retry_backoff         text        NOT NULL DEFAULT 'exponential',
  retry_base_ms         bigint      NOT NULL DEFAULT 1000,
  retry_cap_ms          bigint      NOT NULL DEFAULT 600000,
  retry_jitter          double precision NOT NULL DEFAULT 0.2,
  misfire_policy        text        NOT NULL DEFAULT 'fire_once',
  enabled               boolean     NOT NULL DEFAULT true,
  next_fire_at          timestamptz NOT NULL,
  consecutive_failures  integer     NOT NULL DEFAULT 0,
  last_fire_error       text,
  last_fired_at         timestamptz,
  last_job_id           bigint,
  created_at            timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at            timestamptz NOT NULL DEFAULT clock_timestamp(),
  CONSTRAINT cron_schedules_payload_check CHECK ((payload IS NULL) <> (payload_factory IS NULL)),
  CONSTRAINT cron_schedules_retry_backoff_check
    CHECK (retry_backoff IN ('exponential', 'linear', 'constant')),
  CONSTRAINT cron_schedules_max_attempts_check CHECK (max_attempts >= 1),
  CONSTRAINT cron_schedules_misfire_policy_check
    CHECK (misfire_policy IN ('fire_once', 'fire_all')),
  CONSTRAINT cron_schedules_failures_check CHECK (consecutive_failures >= 0)
);
-- S12: the due schedules, earliest first.
CREATE INDEX cron_schedules_due_idx ON {schema}.cron_schedules (next_fire_at) WHERE enabled;
-- S13: an actor's schedules (force-deregistration disables them).
CREATE INDEX cron_schedules_actor_idx ON {schema}.cron_schedules (actor);
