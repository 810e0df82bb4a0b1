-- A handler's decisions about its own job (A5): snooze and discard. Used by
-- io.taskq.postgres.internal.execution.HandlerDecisions, on the handler's thread. {schema} is the
-- validated, quoted schema.

-- name: snooze
-- A5: the handler threw SnoozeException(delay). While the job has snoozed fewer than the actor's
-- max_snoozes times, the snooze is free: the attempt the claim counted is given back (attempt - 1,
-- as the rate-limit wait does), snoozes + 1, and the job goes back to 'pending' due at now + delay
-- (the claim takes only due jobs, as for a retry). Past the bound the snooze counts as an attempt:
-- the attempt is kept, and a job with no attempt left ends 'failed' with error class 'SnoozeLimit'
-- instead. A job with a cancel in flight ends 'cancelled' (L8). One job_attempts row records the
-- attempt (outcome 'snoozed', or 'failed' / 'cancelled'), one job_events row the transition (kind
-- 'snoozed' with the delay and the count as its note; else 'failed' / 'cancelled'). The attempt's
-- reservation slots (L7) are freed with the transition; a batch member that ended counts towards
-- its batch (L9). D9: only under this attempt's lease token, and only while still 'running'; the
-- job row is locked before the slot and batch rows, as completion locks them. B4: clock_timestamp().
-- Binds: worker id, delay µs, max snoozes, job id, lease token, wake channel (a batch hook's).
WITH params AS MATERIALIZED (
  SELECT ?::text AS worker_id, ?::bigint AS delay_us, ?::integer AS max_snoozes
),
locked AS MATERIALIZED (
  SELECT j.id, j.attempt, j.max_attempts, j.snoozes, j.started_at,
         CASE
           WHEN j.cancel_requested_at IS NOT NULL THEN 'cancelled'
           WHEN j.snoozes < p.max_snoozes OR j.attempt < j.max_attempts THEN 'pending'
           ELSE 'failed'
         END AS next_status,
         j.cancel_requested_at IS NULL AND j.snoozes < p.max_snoozes AS free
    FROM {schema}.jobs j
   CROSS JOIN params p
   WHERE j.id = ?
     AND j.lease_token = ?
     AND j.status = 'running'
     FOR UPDATE OF j
),
changed AS (
  UPDATE {schema}.jobs j
     SET status            = l.next_status,
         attempt           = CASE WHEN l.free THEN j.attempt - 1 ELSE j.attempt END,
         snoozes           = CASE WHEN l.next_status = 'pending' THEN j.snoozes + 1 ELSE j.snoozes END,
         run_at            = CASE WHEN l.next_status = 'pending'
                                  THEN clock_timestamp() + p.delay_us * interval '1 microsecond'
                                  ELSE j.run_at END,
         error_class       = CASE WHEN l.next_status = 'failed' THEN 'SnoozeLimit' ELSE j.error_class END,
         error_message     = CASE WHEN l.next_status = 'failed'
                                  THEN 'the handler snoozed the job ' || (j.snoozes + 1)
                                       || ' times, past the ' || p.max_snoozes
                                       || ' free snoozes of its actor, and no attempt is left'
                                  ELSE j.error_message END,
         error_stack       = CASE WHEN l.next_status = 'failed' THEN NULL ELSE j.error_stack END,
         finished_at       = CASE WHEN l.next_status = 'pending' THEN NULL ELSE clock_timestamp() END,
         locked_by         = NULL,
         lock_expires_at   = NULL
    FROM locked l, params p
   WHERE j.id = l.id
  RETURNING j.id, j.status, l.attempt, j.actor, j.queue, l.started_at, l.free, j.snoozes,
            j.max_attempts, j.error_class, j.error_message, j.batch_id, j.lease_token,
            p.worker_id, p.delay_us, p.max_snoozes
),
slots_freed AS (
  UPDATE {schema}.reservation_slots s
     SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL,
         last_used_at = clock_timestamp()
    FROM changed c
   WHERE s.job_id = c.id
     AND s.lease_token = c.lease_token
),
attempts AS (
  INSERT INTO {schema}.job_attempts
         (job_id, attempt, worker_id, outcome, error_class, error_message, started_at, finished_at)
  SELECT c.id, c.attempt, (SELECT w.id FROM {schema}.workers w WHERE w.id = c.worker_id),
         CASE c.status WHEN 'pending' THEN 'snoozed' ELSE c.status END,
         CASE WHEN c.status = 'failed' THEN c.error_class END,
         CASE WHEN c.status = 'failed' THEN c.error_message END,
         c.started_at, clock_timestamp()
    FROM changed c
),
events AS (
  INSERT INTO {schema}.job_events
         (job_id, kind, actor, queue, attempt, disposition, error_class, error_message, note,
          occurred_at)
  SELECT c.id, CASE c.status WHEN 'pending' THEN 'snoozed' ELSE c.status END, c.actor, c.queue,
         c.attempt, c.status,
         CASE WHEN c.status = 'failed' THEN c.error_class END,
         CASE WHEN c.status = 'failed' THEN c.error_message END,
         CASE WHEN c.status = 'pending' THEN
           'snoozed for ' || (c.delay_us * interval '1 microsecond')::text
           || CASE WHEN c.free
                   THEN '; snooze ' || c.snoozes || ' of ' || c.max_snoozes || ' free, no attempt used'
                   ELSE '; snooze ' || c.snoozes || ', past the ' || c.max_snoozes
                        || ' free snoozes: counted as attempt ' || c.attempt || ' of ' || c.max_attempts
              END
         END,
         clock_timestamp()
    FROM changed c
),
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status), ?::text)
              ELSE 0 END AS completed
    FROM changed
   WHERE batch_id IS NOT NULL AND status <> 'pending'
)
SELECT c.id, c.status, c.free FROM changed c CROSS JOIN settled

-- name: discard
-- A5: the handler threw DiscardException(reason): the job ends 'failed' for good after this
-- attempt, whatever attempts are left, with error class 'Discarded' (the class an operator's
-- discard records) and the message 'discarded by the handler: <reason>'; the job_attempts row
-- records the failed attempt (with the exception's stack), the job_events row (kind 'discarded',
-- disposition 'failed') carries the reason as its note, as an operator's discard does. A job with
-- a cancel in flight ends 'cancelled' (L8). Slots freed and batch settled as for a snooze. D9: only
-- under this attempt's lease token, and only while still 'running'. B4: clock_timestamp().
-- Binds: worker id, error message, error stack, note (the reason), job id, lease token, wake
-- channel.
WITH params AS MATERIALIZED (
  SELECT ?::text AS worker_id, ?::text AS message, ?::text AS stack, ?::text AS note
),
locked AS MATERIALIZED (
  SELECT j.id, j.started_at,
         CASE WHEN j.cancel_requested_at IS NOT NULL THEN 'cancelled' ELSE 'failed' END AS next_status
    FROM {schema}.jobs j
   WHERE j.id = ?
     AND j.lease_token = ?
     AND j.status = 'running'
     FOR UPDATE OF j
),
changed AS (
  UPDATE {schema}.jobs j
     SET status            = l.next_status,
         error_class       = CASE WHEN l.next_status = 'failed' THEN 'Discarded' ELSE j.error_class END,
         error_message     = CASE WHEN l.next_status = 'failed' THEN p.message ELSE j.error_message END,
         error_stack       = CASE WHEN l.next_status = 'failed' THEN p.stack ELSE j.error_stack END,
         result            = NULL,
         result_expires_at = NULL,
         finished_at       = clock_timestamp(),
         locked_by         = NULL,
         lock_expires_at   = NULL
    FROM locked l, params p
   WHERE j.id = l.id
  RETURNING j.id, j.status, j.attempt, j.actor, j.queue, l.started_at, j.batch_id, j.lease_token,
            p.worker_id, p.message, p.stack, p.note
),
slots_freed AS (
  UPDATE {schema}.reservation_slots s
     SET job_id = NULL, lease_token = NULL, lease_expires_at = NULL,
         last_used_at = clock_timestamp()
    FROM changed c
   WHERE s.job_id = c.id
     AND s.lease_token = c.lease_token
),
attempts AS (
  INSERT INTO {schema}.job_attempts
         (job_id, attempt, worker_id, outcome, error_class, error_message, error_stack, started_at,
          finished_at)
  SELECT c.id, c.attempt, (SELECT w.id FROM {schema}.workers w WHERE w.id = c.worker_id), c.status,
         CASE WHEN c.status = 'failed' THEN 'Discarded' END,
         CASE WHEN c.status = 'failed' THEN c.message END,
         CASE WHEN c.status = 'failed' THEN c.stack END,
         c.started_at, clock_timestamp()
    FROM changed c
),
events AS (
  INSERT INTO {schema}.job_events
         (job_id, kind, actor, queue, attempt, disposition, error_class, error_message, note,
          occurred_at)
  SELECT c.id, CASE c.status WHEN 'failed' THEN 'discarded' ELSE c.status END, c.actor, c.queue,
         c.attempt, c.status,
         CASE WHEN c.status = 'failed' THEN 'Discarded' END,
         CASE WHEN c.status = 'failed' THEN c.message END,
         c.note, clock_timestamp()
    FROM changed c
),
settled AS (
  SELECT CASE WHEN count(*) > 0
              THEN {schema}.settle_batch_members(array_agg(batch_id), array_agg(status), ?::text)
              ELSE 0 END AS completed
    FROM changed
   WHERE batch_id IS NOT NULL
)
SELECT c.id, c.status FROM changed c CROSS JOIN settled
