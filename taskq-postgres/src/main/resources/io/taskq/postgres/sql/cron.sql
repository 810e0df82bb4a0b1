-- Cron schedules (S12, F5): the Schedules client and the cron tick. {schema} is the validated,
-- quoted schema (M3); everything else is bound.

-- name: now
SELECT clock_timestamp()

-- name: upsert_schedule
-- Idempotent by name. A new row takes every value; an existing one takes the definition only when
-- something changed (so re-putting the same definition writes nothing), keeps next_fire_at unless
-- the expression or the time zone changed, and never touches enabled or the failure bookkeeping.
-- Binds: name, actor, cron_expression, time_zone, payload, payload_factory, queue, priority,
-- max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, misfire_policy, enabled,
-- next_fire_at (text, ISO-8601).
INSERT INTO {schema}.cron_schedules AS s (
  name, actor, cron_expression, time_zone, payload, payload_factory, queue, priority,
  max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, misfire_policy,
  enabled, next_fire_at)
VALUES (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz)
ON CONFLICT (name) DO UPDATE SET
  actor = EXCLUDED.actor,
  cron_expression = EXCLUDED.cron_expression,
  time_zone = EXCLUDED.time_zone,
  payload = EXCLUDED.payload,
  payload_factory = EXCLUDED.payload_factory,
  queue = EXCLUDED.queue,
  priority = EXCLUDED.priority,
  max_attempts = EXCLUDED.max_attempts,
  retry_backoff = EXCLUDED.retry_backoff,
  retry_base_ms = EXCLUDED.retry_base_ms,
  retry_cap_ms = EXCLUDED.retry_cap_ms,
  retry_jitter = EXCLUDED.retry_jitter,
  misfire_policy = EXCLUDED.misfire_policy,
  next_fire_at = CASE
    WHEN (s.cron_expression, s.time_zone) IS DISTINCT FROM (EXCLUDED.cron_expression, EXCLUDED.time_zone)
    THEN EXCLUDED.next_fire_at ELSE s.next_fire_at END,
  updated_at = clock_timestamp()
WHERE (s.actor, s.cron_expression, s.time_zone, s.payload, s.payload_factory, s.queue, s.priority,
       s.max_attempts, s.retry_backoff, s.retry_base_ms, s.retry_cap_ms, s.retry_jitter,
       s.misfire_policy)
  IS DISTINCT FROM
      (EXCLUDED.actor, EXCLUDED.cron_expression, EXCLUDED.time_zone, EXCLUDED.payload,
       EXCLUDED.payload_factory, EXCLUDED.queue, EXCLUDED.priority, EXCLUDED.max_attempts,
       EXCLUDED.retry_backoff, EXCLUDED.retry_base_ms, EXCLUDED.retry_cap_ms,
       EXCLUDED.retry_jitter, EXCLUDED.misfire_policy)

-- name: find_schedule
-- Schedules.info reads this row, and list_schedules' rows, by column name.
SELECT name, actor, cron_expression, time_zone, payload::text AS payload, payload_factory, queue,
       priority, misfire_policy, enabled, next_fire_at, consecutive_failures, last_fire_error,
       last_fired_at, last_job_id, created_at, updated_at
FROM {schema}.cron_schedules
WHERE name = ?

-- name: list_schedules
SELECT name, actor, cron_expression, time_zone, payload::text AS payload, payload_factory, queue,
       priority, misfire_policy, enabled, next_fire_at, consecutive_failures, last_fire_error,
       last_fired_at, last_job_id, created_at, updated_at
FROM {schema}.cron_schedules
ORDER BY name

-- name: lock_schedule
-- enable(): the row and its timing, so the next fire is computed from its own expression.
SELECT cron_expression, time_zone, enabled FROM {schema}.cron_schedules WHERE name = ? FOR UPDATE

-- name: enable_schedule
-- Re-enabling starts afresh: no burst for the fires missed while disabled, failures forgotten.
-- Binds: next_fire_at (text), name.
UPDATE {schema}.cron_schedules
SET enabled = true, next_fire_at = ?::timestamptz, consecutive_failures = 0,
    updated_at = clock_timestamp()
WHERE name = ?

-- name: disable_schedule
UPDATE {schema}.cron_schedules
SET enabled = false, updated_at = clock_timestamp()
WHERE name = ? AND enabled

-- name: delete_schedule
DELETE FROM {schema}.cron_schedules WHERE name = ?

-- name: try_cron_lock
-- M1 / F5: taskq:cron:{schema}, transaction-scoped and taken without waiting: one tick at a time
-- per schema; a process that finds it held skips its tick. COMMIT or ROLLBACK releases it.
SELECT pg_try_advisory_xact_lock(?)

-- name: select_due
-- F5: at most the tick limit of due schedules with their actor_config rows (a missing row fails
-- that schedule only), earliest first; SKIP LOCKED so a schedule another transaction is changing
-- is left for the next tick. The selection bound uses statement_timestamp() (B4), returned too as
-- the tick's "now". CronTick reads the row by column name (CronTick.Due.read).
SELECT s.name, s.actor, s.cron_expression, s.time_zone, s.payload::text AS payload, s.payload_factory,
       s.queue, s.priority, s.max_attempts, s.retry_backoff, s.retry_base_ms, s.retry_cap_ms,
       s.retry_jitter, s.misfire_policy, s.next_fire_at, a.queue AS actor_queue,
       statement_timestamp() AS now
FROM {schema}.cron_schedules s
LEFT JOIN {schema}.actor_config a ON a.actor = s.actor
WHERE s.enabled AND s.next_fire_at <= statement_timestamp()
ORDER BY s.next_fire_at, s.name
LIMIT ?
FOR UPDATE OF s SKIP LOCKED

-- name: update_fired
-- F5: the "fired" outcome branch, one statement for every fired schedule of the tick.
-- Binds: names (text[]), next fire times (text[] of ISO-8601 instants), job ids (bigint[]).
UPDATE {schema}.cron_schedules s
SET next_fire_at = u.next_fire_at::timestamptz,
    last_fired_at = clock_timestamp(),
    last_job_id = u.job_id,
    consecutive_failures = 0,
    last_fire_error = NULL,
    updated_at = clock_timestamp()
FROM unnest(?::text[], ?::text[], ?::bigint[]) AS u(name, next_fire_at, job_id)
WHERE s.name = u.name

-- name: update_failed
-- F5: the "failed" outcome branch, one statement for every failed schedule of the tick. The error
-- text is sanitised before it gets here (one raw NUL would abort the whole statement, 22021).
-- A NULL next fire time (none could be computed) keeps the old one and disables the schedule.
-- Binds: auto-disable threshold (0 = never), the same again, names (text[]), next fire times
-- (text[]), errors (text[]).
UPDATE {schema}.cron_schedules s
SET next_fire_at = COALESCE(u.next_fire_at::timestamptz, s.next_fire_at),
    consecutive_failures = s.consecutive_failures + 1,
    last_fire_error = u.error,
    enabled = s.enabled AND u.next_fire_at IS NOT NULL
              AND NOT (?::integer > 0 AND s.consecutive_failures + 1 >= ?::integer),
    updated_at = clock_timestamp()
FROM unnest(?::text[], ?::text[], ?::text[]) AS u(name, next_fire_at, error)
WHERE s.name = u.name
RETURNING s.name, s.enabled, s.consecutive_failures
