-- Observability reads (O1 gauge samplers, O7 readiness). {schema} is the validated, quoted schema
-- (M3). Used by io.taskq.postgres.TaskQ; each runs under a short JDBC query timeout, so a slow
-- database costs a failed read (counted under sweep_timeouts by the sampler), never a stuck one.

-- name: queue_backlog
-- Pending jobs per queue and the age of the oldest runnable one (run_at passed), by the database
-- clock. Index: jobs_claim_idx (partial on status = 'pending') covers the scan.
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
