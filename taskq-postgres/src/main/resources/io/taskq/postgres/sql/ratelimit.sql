-- The PostgreSQL sliding-window rate limit (M4, S9, S10, D14), the fallback of the Redis log
-- taskq:{schema}:sw:{name}. Used by io.taskq.limits.PostgresSlidingWindow. {schema} is the
-- validated, quoted schema (M3).
--
-- One decision is one transaction: take the keyed advisory lock taskq:{schema}:sw:{name}
-- (transaction-scoped, so it can never leak), read the name's log, decide, write the log back.
-- The read runs as its own statement after the lock, so its snapshot sees the previous holder's
-- commit. Every instant is the database clock's, in microseconds since the epoch, so processes
-- with skewed clocks agree.

-- name: lock
-- Binds: the lock key (AdvisoryLockName.slidingWindow). Returns the database clock after the lock
-- was granted, in µs since the epoch.
SELECT pg_advisory_xact_lock(?),
       (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS now_us

-- name: read
-- Binds: name. The admitted instants still in the log, oldest first, in µs since the epoch.
SELECT ARRAY(SELECT (extract(epoch FROM t) * 1000000)::bigint
               FROM unnest(b.window_log) AS t ORDER BY t) AS log_us
  FROM {schema}.rate_limit_buckets b
 WHERE b.name = ?

-- name: write
-- Binds: name, keyed, log bigint[] (µs since the epoch, oldest first), now µs.
-- last_used_at is the decision's instant, so S9 and the worker's reclaim drain see when the name
-- was last asked about, admitted or not. A keyed row stays keyed.
INSERT INTO {schema}.rate_limit_buckets AS b (name, keyed, window_log, last_used_at)
VALUES (?, ?,
        ARRAY(SELECT timestamptz 'epoch' + u * interval '1 microsecond'
                FROM unnest(?::bigint[]) AS u),
        timestamptz 'epoch' + ? * interval '1 microsecond')
ON CONFLICT (name) DO UPDATE
   SET window_log   = excluded.window_log,
       last_used_at = excluded.last_used_at,
       keyed        = b.keyed OR excluded.keyed

-- name: forget
-- S10: the worker's reclaim drain deletes the rows of names its registry evicted, but only rows
-- whose every entry has left the window (last use at least one window ago), so deleting one
-- never changes a decision, even when another worker still uses the name.
-- Binds: names text[], window µs.
DELETE FROM {schema}.rate_limit_buckets
 WHERE name = ANY (?::text[])
   AND keyed
   AND last_used_at <= clock_timestamp() - ? * interval '1 microsecond'
