-- Observability reads (O1 gauge samplers, O7 readiness). {schema} is the validated, quoted schema
-- (M3). Used by io.taskq.TaskQ; each runs under a short JDBC query timeout, so a slow
-- database costs a failed read (counted under sweep_timeouts by the sampler), never a stuck one.

-- name: queue_backlog
-- Pending jobs per queue and the age of the oldest runnable one (run_at passed), by the database
-- clock. Index: jobs_claim_queue_idx (partial on status = 'pending') covers the scan.
SELECT queue,
       count(*) AS depth,
       COALESCE((EXTRACT(EPOCH FROM statement_timestamp()
                 - min(run_at) FILTER (WHERE run_at <= statement_timestamp())) * 1000000)::bigint,
                0) AS oldest_us
  FROM {schema}.jobs
 WHERE status = 'pending'
 GROUP BY queue
 ORDER BY queue

-- name: ping
-- The readiness database check: the database answers a statement.
SELECT 1

-- name: finished_per_minute
-- W1: the dashboard's throughput chart. Jobs that finished in the last ? seconds per minute of
-- the database clock: succeeded, and failed or crashed (final failures). Index: jobs_terminal_idx
-- (partial on the terminal statuses, repeated here so the planner can use it; it carries status)
-- bounds the scan to the window.
SELECT (floor(EXTRACT(EPOCH FROM finished_at) / 60) * 60)::bigint AS minute_epoch,
       count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
       count(*) FILTER (WHERE status IN ('failed', 'crashed')) AS failed
  FROM {schema}.jobs
 WHERE status IN ('succeeded', 'failed', 'crashed', 'cancelled')
   AND finished_at >= statement_timestamp() - make_interval(secs => ?)
 GROUP BY 1
 ORDER BY 1
