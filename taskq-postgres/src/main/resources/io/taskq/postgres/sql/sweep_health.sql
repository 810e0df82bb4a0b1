-- The leader's sweep health (V012, A8, W1). Used by io.taskq.postgres.internal.maintenance (the
-- writer) and io.taskq.postgres.internal.operations (the reader). {schema} is the validated,
-- quoted schema (M3); every value is bound.

-- name: write
-- One upsert per loop tick for the sweeps that loop runs. Parallel arrays, one element per sweep:
-- name, catalog id, breaker tier, batch size, configured size, then the ages in milliseconds
-- (before the leader's own "now") of the last run, last success and last error (NULL: never),
-- the error class and message, consecutive failures, stalled, stall reason, expected period.
-- Ages rather than instants: every stored time is on the database's clock (clock_timestamp(),
-- B4), so a reader's ages do not depend on the leader host's clock. Scalar binds: the leader
-- ("host:pid"), its lock session's backend pid, the loop period in milliseconds.
INSERT INTO {schema}.sweep_health AS h
       (sweep_name, sweep_id, breaker_tier, batch_size, batch_size_configured,
        last_run_at, last_success_at, last_error_at, last_error_class, last_error_message,
        consecutive_failures, stalled, stall_reason, expected_period_ms,
        leader, leader_pid, loop_period_ms, written_at)
SELECT u.name, u.id, u.tier, u.size, u.configured,
       clock_timestamp() - make_interval(secs => u.run_ms / 1000.0),
       clock_timestamp() - make_interval(secs => u.success_ms / 1000.0),
       clock_timestamp() - make_interval(secs => u.error_ms / 1000.0),
       u.error_class, u.error_message, u.failures, u.stalled, u.reason, u.expected_ms,
       ?, ?, ?, clock_timestamp()
  FROM unnest(?::text[], ?::text[], ?::text[], ?::int4[], ?::int4[],
              ?::int8[], ?::int8[], ?::int8[], ?::text[], ?::text[],
              ?::int4[], ?::bool[], ?::text[], ?::int8[])
       AS u(name, id, tier, size, configured, run_ms, success_ms, error_ms, error_class,
            error_message, failures, stalled, reason, expected_ms)
ON CONFLICT (sweep_name) DO UPDATE
   SET sweep_id = EXCLUDED.sweep_id,
       breaker_tier = EXCLUDED.breaker_tier,
       batch_size = EXCLUDED.batch_size,
       batch_size_configured = EXCLUDED.batch_size_configured,
       -- A new leader that has not run a sweep yet keeps its predecessor's stamps.
       last_run_at = COALESCE(EXCLUDED.last_run_at, h.last_run_at),
       last_success_at = COALESCE(EXCLUDED.last_success_at, h.last_success_at),
       last_error_at = COALESCE(EXCLUDED.last_error_at, h.last_error_at),
       last_error_class = CASE WHEN EXCLUDED.last_error_at IS NULL THEN h.last_error_class
                               ELSE EXCLUDED.last_error_class END,
       last_error_message = CASE WHEN EXCLUDED.last_error_at IS NULL THEN h.last_error_message
                                 ELSE EXCLUDED.last_error_message END,
       consecutive_failures = EXCLUDED.consecutive_failures,
       stalled = EXCLUDED.stalled,
       stall_reason = EXCLUDED.stall_reason,
       expected_period_ms = EXCLUDED.expected_period_ms,
       leader = EXCLUDED.leader,
       leader_pid = EXCLUDED.leader_pid,
       loop_period_ms = EXCLUDED.loop_period_ms,
       written_at = EXCLUDED.written_at

-- name: read
-- Every row (one per sweep, a handful: a scan of the primary key's table), with the database's
-- now so a reader computes ages on one clock.
SELECT sweep_name, sweep_id, leader, leader_pid, last_run_at, last_success_at, last_error_at,
       last_error_class, last_error_message, breaker_tier, batch_size, batch_size_configured,
       consecutive_failures, stalled, stall_reason, loop_period_ms, expected_period_ms,
       written_at, statement_timestamp() AS read_at
  FROM {schema}.sweep_health
 ORDER BY sweep_name
