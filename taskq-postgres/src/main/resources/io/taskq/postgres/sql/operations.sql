-- Operating the queue (A1-A4): search, detail, retry, retry_where, pause and resume.
-- Used by io.taskq.postgres.internal.operations. {schema} is the validated, quoted schema (M3);
-- every value is bound. The search_* entries are fragments SearchQuery joins into one statement
-- ({table}, {archived} and {filters} are filled by it with fixed text, never with a value).

-- name: search_arm
-- A1: one arm of a search: the newest jobs below the cursor, in id order backwards. The arm's
-- status is a literal ({status} is `j.status = '<status>' AND`, fixed text from JobStatus), so
-- custom and generic plans alike can use the partial index of that state (V013): failed, crashed
-- and cancelled walk jobs_search_failures_idx (status, id) backwards and stop once the page is
-- full (one actor's: jobs_failures_actor_idx (status, actor, id), V014); pending, scheduled and running read their state's index (jobs_claim_queue_idx,
-- jobs_scheduled_idx, jobs_running_idx: as many rows as are in that state, the claim index
-- narrowed by a queue or actor filter) or walk the primary key backwards, whichever the planner
-- finds cheaper; succeeded walks the primary key backwards (or reads jobs_terminal_idx when the
-- finished rows are few). The archive's arms walk jobs_archive_search_status_idx (status, id).
-- Without a status, the primary key. Binds: cursor id, the filters' binds, page size + 1.
(SELECT j.id, j.actor, j.queue, j.status, j.priority, j.attempt, j.max_attempts, j.run_at,
        j.created_at, j.started_at, j.finished_at, j.error_class, j.error_message,
        ARRAY(SELECT key FROM jsonb_each_text(j.labels) ORDER BY key) AS label_keys,
        ARRAY(SELECT value FROM jsonb_each_text(j.labels) ORDER BY key) AS label_values,
        {archived} AS archived
   FROM {schema}.{table} j
  WHERE {status} j.id < ?{filters}
  ORDER BY j.id DESC
  LIMIT ?)

-- name: count_arm
-- A1/W2: one arm of a bounded count (a bulk action's preview): the jobs of the arm's status (a
-- literal, as in search_arm) that meet the filters, stopping after the bound + 1 rows. No order
-- and no cursor, so the planner may answer from any index that holds the criteria (the state's
-- partial index: jobs_claim_queue_idx by an index-only scan for pending, jobs_terminal_idx or
-- jobs_search_failures_idx for finished jobs, jobs_failures_actor_idx for one actor's failed,
-- crashed or cancelled jobs (index-only, V014); the error index), also in a generic plan; a walk
-- backwards over the primary key checking every row, what a generic plan of the ordered search
-- may pick, is never the cheapest here. Binds: the filters' binds, bound + 1.
(SELECT 1
   FROM {schema}.{table} j
  WHERE {status} true{filters}
  LIMIT ?)

-- name: search_filter_actor
-- One actor: an equality, so the search of one actor's failed, crashed or cancelled jobs walks
-- jobs_failures_actor_idx (status, actor, id) backwards in order (V014); `= ANY` on the index's
-- second column would give up that order.
AND j.actor = ?

-- name: search_filter_actors
AND j.actor = ANY (?::text[])

-- name: search_filter_queues
AND j.queue = ANY (?::text[])

-- name: search_filter_labels
AND j.labels @> ?::jsonb

-- name: search_filter_error_classes
AND j.error_class = ANY (?::text[])

-- name: search_filter_created_from
AND j.created_at >= ?

-- name: search_filter_created_to
AND j.created_at < ?

-- name: search_filter_finished_from
AND j.finished_at >= ?

-- name: search_filter_finished_to
AND j.finished_at < ?

-- name: counts
-- A1: jobs of the hot table per (status, queue, actor), one arm per state, each read from that
-- state's partial index (V013) and never from an index of every row: pending by an index-only scan
-- of jobs_claim_queue_idx (queue, actor, ...); scheduled through jobs_scheduled_idx and running
-- through jobs_running_idx (their rows are read: as many as are in that state); the finished
-- states by an index-only scan of jobs_terminal_idx, which carries status, queue and actor. No read
-- of the finished or pending rows themselves once the visibility map is current.
SELECT 'pending' AS status, queue, actor, count(*) AS n
  FROM {schema}.jobs WHERE status = 'pending' GROUP BY queue, actor
UNION ALL
SELECT 'scheduled', queue, actor, count(*)
  FROM {schema}.jobs WHERE status = 'scheduled' GROUP BY queue, actor
UNION ALL
SELECT 'running', queue, actor, count(*)
  FROM {schema}.jobs WHERE status = 'running' GROUP BY queue, actor
UNION ALL
SELECT status, queue, actor, count(*)
  FROM {schema}.jobs
 WHERE status IN ('succeeded', 'failed', 'crashed', 'cancelled')
 GROUP BY status, queue, actor

-- name: counts_archive
-- A1: the archive's jobs per (status, queue, actor) by an index-only scan of
-- jobs_archive_search_counts_idx: no read of the table's rows once the visibility map is current.
SELECT status, queue, actor, count(*) AS n FROM {schema}.jobs_archive GROUP BY status, queue, actor

-- name: attempts
-- A2: every finished attempt of one job, in order: its job_attempts rows and, for a succeeded job,
-- the success its job row records (V011's job_attempt_history; job_attempts_job_idx and the two
-- primary keys). The success has no attempt row, so it sorts after any row of the same attempt.
SELECT attempt, outcome, worker_id, error_class, error_message, error_stack, started_at,
       finished_at
  FROM {schema}.job_attempt_history
 WHERE job_id = ?
 ORDER BY attempt, attempt_row NULLS LAST

-- name: events
-- A2: every lifecycle event of one job still within the event retention (job_events_job_idx).
SELECT event_id, kind, attempt, disposition, error_class, error_message, note, occurred_at
  FROM {schema}.job_events
 WHERE job_id = ?
 ORDER BY occurred_at, event_id

-- name: progress
-- A2: the job's latest progress report, if any (V006).
SELECT fraction, message, detail, reported_at FROM {schema}.job_progress WHERE job_id = ?

-- name: retry
-- A3: one job, failed / crashed / cancelled -> pending now (or scheduled at the given time), in one
-- statement with its event row (B6). The attempt counter is kept; when the job has no attempt
-- left the bound grows by exactly one (max_attempts = max(max_attempts, attempt + 1)), so the next
-- run is allowed and errors still line up with attempts. A deadline that has passed is dropped
-- (S2 would fail the job again at once); a future one is kept. The result and the cancel request
-- of the last run are cleared; its error stays until the next run writes its own. A job in a
-- batch (L9) is not retried: its batch already counted it. B4: clock_timestamp() for writes.
-- Binds: id, run at (NULL: now), note, wake channel.
WITH params AS MATERIALIZED (
  SELECT ?::bigint AS id, ?::timestamptz AS run_at, ?::text AS note, ?::text AS wake_channel
),
changed AS (
  UPDATE {schema}.jobs j
     SET status = CASE WHEN p.run_at > clock_timestamp() THEN 'scheduled' ELSE 'pending' END,
         run_at = GREATEST(COALESCE(p.run_at, clock_timestamp()), clock_timestamp()),
         max_attempts = GREATEST(j.max_attempts, j.attempt + 1),
         deadline_at = CASE WHEN j.deadline_at <= clock_timestamp() THEN NULL
                            ELSE j.deadline_at END,
         cancel_requested_at = NULL,
         finished_at = NULL,
         result = NULL,
         result_expires_at = NULL
    FROM params p
   WHERE j.id = p.id
     AND j.status IN ('failed', 'crashed', 'cancelled')
     AND j.batch_id IS NULL
  RETURNING j.id, j.status, j.actor, j.queue, j.attempt, j.max_attempts, j.run_at
),
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, note,
                                   occurred_at)
  SELECT id, 'manually_retried', actor, queue, attempt, status, (SELECT note FROM params),
         clock_timestamp()
    FROM changed
),
woken AS (
  SELECT count(pg_notify((SELECT wake_channel FROM params), queue)) AS sent
    FROM changed
   WHERE status = 'pending'
)
SELECT c.status, c.max_attempts, c.run_at FROM changed c CROSS JOIN woken

-- name: retry_state
-- A3: after a retry that changed nothing, why: the job's status and batch, in the hot table or
-- the archive.
SELECT status, batch_id IS NOT NULL AS in_batch, false AS archived FROM {schema}.jobs WHERE id = ?
UNION ALL
SELECT status, batch_id IS NOT NULL, true FROM {schema}.jobs_archive WHERE id = ?
LIMIT 1

-- name: operation_start
-- F1: where a bulk operation starts: the highest job id (later jobs are not its business) and
-- the database's clock (a job that finished after it, retried and failed again by this operation,
-- say, is not matched twice).
SELECT COALESCE((SELECT max(id) FROM {schema}.jobs), 0) AS max_id, statement_timestamp() AS started_at

-- name: retry_where
-- A3/F1/B1: ONE statement per committed batch of a bulk retry: a LIMIT-ed window, the locking
-- re-check, the driving UPDATE (as retry above), one batched job_events INSERT and one wake NOTIFY
-- per queue, in the batch's one transaction (B6). The window has one arm per retryable status,
-- each with its status as a literal (jobs_search_failures_idx (status, id), V013); an arm the filter does not ask for is
-- switched off by a one-time filter. Only jobs up to the starting id that finished before the
-- operation started match, so a job this operation retried that fails again is not retried twice.
-- Binds: batch size, max id, started at, statuses text[], actors text[] (NULL: any), queues
-- text[] (NULL: any), labels jsonb (NULL: any), error classes text[] (NULL: any), created from,
-- created to, finished from, finished to (NULL: open), note, wake channel.
WITH params AS MATERIALIZED (
  SELECT ?::integer AS batch_size, ?::bigint AS max_id, ?::timestamptz AS started_at,
         ?::text[] AS statuses, ?::text[] AS actors, ?::text[] AS queues, ?::jsonb AS labels,
         ?::text[] AS error_classes, ?::timestamptz AS created_from, ?::timestamptz AS created_to,
         ?::timestamptz AS finished_from, ?::timestamptz AS finished_to, ?::text AS note,
         ?::text AS wake_channel
),
win AS MATERIALIZED (
  SELECT a.id
    FROM (
      (SELECT j.id FROM {schema}.jobs j CROSS JOIN params p
        WHERE (SELECT 'failed' = ANY (statuses) FROM params)
          AND j.status = 'failed' AND j.id <= p.max_id AND j.finished_at < p.started_at
          AND j.batch_id IS NULL
          AND (p.actors IS NULL OR j.actor = ANY (p.actors))
          AND (p.queues IS NULL OR j.queue = ANY (p.queues))
          AND (p.labels IS NULL OR j.labels @> p.labels)
          AND (p.error_classes IS NULL OR j.error_class = ANY (p.error_classes))
          AND (p.created_from IS NULL OR j.created_at >= p.created_from)
          AND (p.created_to IS NULL OR j.created_at < p.created_to)
          AND (p.finished_from IS NULL OR j.finished_at >= p.finished_from)
          AND (p.finished_to IS NULL OR j.finished_at < p.finished_to)
        LIMIT (SELECT batch_size FROM params))
      UNION ALL
      (SELECT j.id FROM {schema}.jobs j CROSS JOIN params p
        WHERE (SELECT 'crashed' = ANY (statuses) FROM params)
          AND j.status = 'crashed' AND j.id <= p.max_id AND j.finished_at < p.started_at
          AND j.batch_id IS NULL
          AND (p.actors IS NULL OR j.actor = ANY (p.actors))
          AND (p.queues IS NULL OR j.queue = ANY (p.queues))
          AND (p.labels IS NULL OR j.labels @> p.labels)
          AND (p.error_classes IS NULL OR j.error_class = ANY (p.error_classes))
          AND (p.created_from IS NULL OR j.created_at >= p.created_from)
          AND (p.created_to IS NULL OR j.created_at < p.created_to)
          AND (p.finished_from IS NULL OR j.finished_at >= p.finished_from)
          AND (p.finished_to IS NULL OR j.finished_at < p.finished_to)
        LIMIT (SELECT batch_size FROM params))
      UNION ALL
      (SELECT j.id FROM {schema}.jobs j CROSS JOIN params p
        WHERE (SELECT 'cancelled' = ANY (statuses) FROM params)
          AND j.status = 'cancelled' AND j.id <= p.max_id AND j.finished_at < p.started_at
          AND j.batch_id IS NULL
          AND (p.actors IS NULL OR j.actor = ANY (p.actors))
          AND (p.queues IS NULL OR j.queue = ANY (p.queues))
          AND (p.labels IS NULL OR j.labels @> p.labels)
          AND (p.error_classes IS NULL OR j.error_class = ANY (p.error_classes))
          AND (p.created_from IS NULL OR j.created_at >= p.created_from)
          AND (p.created_to IS NULL OR j.created_at < p.created_to)
          AND (p.finished_from IS NULL OR j.finished_at >= p.finished_from)
          AND (p.finished_to IS NULL OR j.finished_at < p.finished_to)
        LIMIT (SELECT batch_size FROM params))
    ) a
   LIMIT (SELECT batch_size FROM params)
),
-- F1: locked in id order (the order every multi-row writer locks in) and re-checked on the newest
-- row version: a job retried meanwhile (by hand, say) drops out here.
locked AS MATERIALIZED (
  SELECT j.id
    FROM {schema}.jobs j CROSS JOIN params p
   WHERE j.id IN (SELECT id FROM win)
     AND j.status = ANY (p.statuses)
     AND j.finished_at < p.started_at
   ORDER BY j.id
     FOR UPDATE OF j
),
changed AS (
  UPDATE {schema}.jobs j
     SET status = 'pending',
         run_at = clock_timestamp(),
         max_attempts = GREATEST(j.max_attempts, j.attempt + 1),
         deadline_at = CASE WHEN j.deadline_at <= clock_timestamp() THEN NULL
                            ELSE j.deadline_at END,
         cancel_requested_at = NULL,
         finished_at = NULL,
         result = NULL,
         result_expires_at = NULL
    FROM locked l
   WHERE j.id = l.id
  RETURNING j.id, j.actor, j.queue, j.attempt
),
stamp AS MATERIALIZED (
  SELECT clock_timestamp() AS at
),
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, note,
                                   occurred_at)
  SELECT c.id, 'manually_retried', c.actor, c.queue, c.attempt, 'pending',
         (SELECT note FROM params),
         s.at + (row_number() OVER (ORDER BY c.id) - 1) * interval '1 microsecond'
    FROM changed c
   CROSS JOIN stamp s
   ORDER BY c.id
),
woken AS (
  SELECT count(pg_notify((SELECT wake_channel FROM params), q.queue)) AS sent
    FROM (SELECT DISTINCT queue FROM changed) q
)
SELECT (SELECT count(*) FROM win) AS window_rows, count(*) AS retried,
       (SELECT sent FROM woken) AS woken
  FROM changed c

-- name: pause
-- A4: stores the pause (the first one's time and author are kept) and tells every worker at
-- once on the wake channel (payload 'taskq:paused'); workers also re-read the table on each poll.
-- Binds: kind, name, by, reason, wake channel.
WITH stored AS (
  INSERT INTO {schema}.paused (kind, name, paused_by, reason)
  VALUES (?, ?, ?, ?)
  ON CONFLICT (kind, name) DO NOTHING
  RETURNING 1
)
SELECT (SELECT count(*) FROM stored) AS changed, pg_notify(?::text, 'taskq:paused')

-- name: resume
-- A4: removes the pause and tells every worker at once. The removed row (at most one: the primary
-- key) comes back for the resume's log line, which names the pause it ended.
-- Binds: kind, name, wake channel.
WITH removed AS (
  DELETE FROM {schema}.paused WHERE kind = ? AND name = ? RETURNING paused_at, paused_by, reason
)
SELECT (SELECT count(*) FROM removed) AS changed,
       (SELECT paused_at FROM removed) AS paused_at,
       (SELECT paused_by FROM removed) AS paused_by,
       (SELECT reason FROM removed) AS reason,
       pg_notify(?::text, 'taskq:paused')

-- name: paused
-- A4: every stored pause (a handful of rows).
SELECT kind, name, paused_at, paused_by, reason FROM {schema}.paused ORDER BY kind, name

-- name: registered_actors
-- A4/A8: the registered actors and their queues (actor_config).
SELECT actor, queue, enabled FROM {schema}.actor_config ORDER BY actor

-- name: leader
-- A8: the session holding the schema's maintenance-leader lock (taskq:leader:{schema}, M1), from
-- pg_locks: a bigint advisory key is split into classid (high 32 bits) and objid (low 32 bits),
-- objsubid 1. Binds: the lock key, twice.
SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, a.backend_start
  FROM pg_catalog.pg_locks l
  JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'advisory'
   AND l.granted
   AND l.objsubid = 1
   AND l.classid = ((?::bigint >> 32) & 4294967295)::oid
   AND l.objid = (?::bigint & 4294967295)::oid
 LIMIT 1

-- name: failed_since
-- A8: jobs that ended failed or crashed since a time, per queue (jobs_terminal_idx, which carries
-- status and queue: an index-only range). Binds: since.
SELECT queue, count(*) AS n
  FROM {schema}.jobs
 WHERE status IN ('failed', 'crashed')
   AND finished_at >= ?
 GROUP BY queue

-- name: actor_failed_since
-- W1: jobs that ended failed or crashed since a time, per actor (jobs_terminal_idx, which carries
-- status and actor: an index-only range). Binds: since.
SELECT actor, count(*) AS n
  FROM {schema}.jobs
 WHERE status IN ('failed', 'crashed')
   AND finished_at >= ?
 GROUP BY actor

-- name: discard
-- A3/W2: an operator discards one job that has not started: scheduled or pending (a job waiting
-- for its next attempt after a failure is pending with a later run_at) -> failed for good, in one
-- statement with its event row (B6). The error class is 'Discarded' and the message says who
-- discarded it and why; the event ('discarded', disposition 'failed') carries the reason as its
-- note. No attempt row is written: no attempt ran. The attempt counter is kept. A running job is
-- left alone (its attempt is in a handler: cancel it), as is a terminal one. A discarded batch
-- member counts towards its batch as failed (L9, V004's settle_batch_members after the job row is
-- locked). B4: clock_timestamp() for writes.
-- Binds: id, error message, note (the reason), wake channel (a completed batch's hook).
WITH params AS MATERIALIZED (
  SELECT ?::bigint AS id, ?::text AS message, ?::text AS note, ?::text AS wake_channel
),
changed AS (
  UPDATE {schema}.jobs j
     SET status = 'failed',
         error_class = 'Discarded',
         error_message = p.message,
         error_stack = NULL,
         finished_at = clock_timestamp(),
         result = NULL,
         result_expires_at = NULL
    FROM params p
   WHERE j.id = p.id
     AND j.status IN ('scheduled', 'pending')
  RETURNING j.id, j.status, j.actor, j.queue, j.attempt, j.error_class, j.error_message,
            j.finished_at, j.batch_id
),
events AS (
  INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition, error_class,
                                   error_message, note, occurred_at)
  SELECT id, 'discarded', actor, queue, attempt, status, error_class, error_message,
         (SELECT note FROM params), finished_at
    FROM changed
),
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status),
                                                 (SELECT wake_channel FROM params))
              ELSE 0 END AS completed
    FROM changed
   WHERE batch_id IS NOT NULL
)
SELECT c.status, c.finished_at FROM changed c CROSS JOIN settled

-- name: job_state
-- A3/W2: after an operator action that changed nothing, why: the job's status in the hot table or
-- the archive.
SELECT status, false AS archived FROM {schema}.jobs WHERE id = ?
UNION ALL
SELECT status, true FROM {schema}.jobs_archive WHERE id = ?
LIMIT 1

-- name: sweep_backlog
-- O1 backlog detection: the rows each leader sweep would act on now (the leader-side backlog a
-- stalled or ratcheting sweep leaves, while dispatch looks healthy), each counted up to a bound
-- (bind: bound + 1, four times) so a large backlog costs at most that many index entries. Each arm
-- is its sweep's own snap predicate on its own partial index: S1's lease arm (jobs_running_idx),
-- S2 (jobs_deadline_idx), S3 (jobs_scheduled_idx), S4 (reservation_slots_lease_idx).
SELECT 'reclaim_expired_locks' AS sweep_name, count(*) AS eligible
  FROM (SELECT 1 FROM {schema}.jobs
         WHERE status = 'running' AND lock_expires_at < statement_timestamp() LIMIT ?) s1
UNION ALL
SELECT 'sweep_deadline_exceeded', count(*)
  FROM (SELECT 1 FROM {schema}.jobs
         WHERE deadline_at < statement_timestamp() AND deadline_at IS NOT NULL
           AND status IN ('scheduled', 'pending', 'running') LIMIT ?) s2
UNION ALL
SELECT 'scheduled_to_pending', count(*)
  FROM (SELECT 1 FROM {schema}.jobs
         WHERE status = 'scheduled' AND run_at <= statement_timestamp() LIMIT ?) s3
UNION ALL
SELECT 'sweep_leaked_reservation_slots', count(*)
  FROM (SELECT 1 FROM {schema}.reservation_slots
         WHERE lease_expires_at IS NOT NULL AND lease_expires_at < statement_timestamp() LIMIT ?) s4

-- name: actor_backlog
-- O1 per-actor backlog: pending jobs per actor and the age of the oldest runnable one (run_at
-- passed), by the database clock. The twin of observe.sql's queue_backlog, grouped by actor; the
-- partial index jobs_claim_queue_idx (status = 'pending') covers it.
SELECT actor,
       count(*) AS depth,
       COALESCE((EXTRACT(EPOCH FROM statement_timestamp()
                 - min(run_at) FILTER (WHERE run_at <= statement_timestamp())) * 1000000)::bigint,
                0) AS oldest_us
  FROM {schema}.jobs
 WHERE status = 'pending'
 GROUP BY actor
 ORDER BY actor

-- name: reservation_slots
-- O1 reservation slots (L7): per queue cap and actor cap, the slots held and the slots there are;
-- keyed caps (one scope per key, unbounded) are summed under the name '*' and report held slots
-- only. Held slots come from reservation_slots_lease_idx (held rows only), the caps' slot rows
-- from the unique (scope_kind, scope_name, slot) index.
SELECT scope_kind AS kind, scope_name AS name,
       count(*) FILTER (WHERE job_id IS NOT NULL) AS held,
       count(*) AS capacity
  FROM {schema}.reservation_slots
 WHERE scope_kind IN ('queue', 'actor')
 GROUP BY scope_kind, scope_name
UNION ALL
SELECT 'key', '*', count(*), 0
  FROM {schema}.reservation_slots
 WHERE lease_expires_at IS NOT NULL AND keyed
 ORDER BY 1, 2
