-- Worker registry (L10) and actor registration. Used by
-- io.taskq.postgres.internal.worker.WorkerRegistration.

-- name: register
-- L10: the worker's row; re-registering an id refreshes it.
-- Binds: id, hostname, pid, queues text[], concurrency.
INSERT INTO {schema}.workers AS w (id, hostname, pid, queues, concurrency)
VALUES (?, ?, ?, ?::text[], ?)
ON CONFLICT (id) DO UPDATE
  SET hostname = EXCLUDED.hostname, pid = EXCLUDED.pid, queues = EXCLUDED.queues,
      concurrency = EXCLUDED.concurrency, heartbeat_at = clock_timestamp();

-- name: deregister
-- L10: a closing worker removes its row; job_attempts keep their rows with worker_id NULL.
DELETE FROM {schema}.workers WHERE id = ?;

-- name: register_actors
-- An actor_config row per registered actor. A re-registration updates the queue but never
-- re-enables an actor an operator disabled.
-- Binds: names text[], queues text[].
INSERT INTO {schema}.actor_config AS a (actor, queue)
SELECT * FROM unnest(?::text[], ?::text[])
ON CONFLICT (actor) DO UPDATE
  SET queue = EXCLUDED.queue, updated_at = clock_timestamp()
  WHERE a.queue IS DISTINCT FROM EXCLUDED.queue;
