-- TaskQ schema, version 7: operating the queue (A1-A6).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.

-- A4: what an operator paused. One row per paused queue or actor; a resume deletes it. Workers
-- read the (small) table on each poll and whenever a pause or resume notifies the wake channel,
-- and leave the paused queues and actors out of their claims. The name '*' of kind 'queue' pauses
-- every queue. paused_at keeps the first pause (a second pause of the same target changes
-- nothing).
CREATE TABLE {schema}.paused (
  kind        text        NOT NULL,
  name        text        NOT NULL,
  paused_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  paused_by   text,
  reason      text,
  PRIMARY KEY (kind, name),
  CONSTRAINT paused_kind_check CHECK (kind IN ('queue', 'actor'))
);

-- A5: how many times a handler snoozed the job (a snooze does not use an attempt; past the
-- actor's bound a snooze counts as one). A6: the job's own per-attempt timeout, NULL for the
-- actor's.
ALTER TABLE {schema}.jobs ADD COLUMN snoozes integer NOT NULL DEFAULT 0;
ALTER TABLE {schema}.jobs ADD COLUMN attempt_timeout_ms bigint;
ALTER TABLE {schema}.jobs ADD CONSTRAINT jobs_attempt_timeout_check
  CHECK (attempt_timeout_ms IS NULL OR attempt_timeout_ms > 0);

-- S11: the archive keeps the shape "every jobs column, in the jobs order, then archived_at"
-- (V001, V005), so archived_at moves behind the new columns.
ALTER TABLE {schema}.jobs_archive ADD COLUMN snoozes integer NOT NULL DEFAULT 0;
ALTER TABLE {schema}.jobs_archive ADD COLUMN attempt_timeout_ms bigint;
ALTER TABLE {schema}.jobs_archive RENAME COLUMN archived_at TO archived_at_before_v7;
ALTER TABLE {schema}.jobs_archive ADD COLUMN archived_at timestamptz;
UPDATE {schema}.jobs_archive SET archived_at = archived_at_before_v7;
DROP INDEX {schema}.jobs_archive_archived_idx;
ALTER TABLE {schema}.jobs_archive DROP COLUMN archived_at_before_v7;
ALTER TABLE {schema}.jobs_archive
  ALTER COLUMN archived_at SET NOT NULL,
  ALTER COLUMN archived_at SET DEFAULT clock_timestamp();
CREATE INDEX jobs_archive_archived_idx ON {schema}.jobs_archive (archived_at);

-- A2/A3/A5: what an operator or a handler said about a lifecycle event ("retried by ops-alice",
-- a discard's reason, a snooze's delay). NULL for the engine's own events.
ALTER TABLE {schema}.job_events ADD COLUMN note text;

-- A1: job search, newest first, keyset-paged on id. One arm per status walks this index backwards
-- from the cursor (id < cursor) and stops at the page size; actor, queue, label and time filters
-- are checked on the rows it walks.
CREATE INDEX jobs_search_status_idx ON {schema}.jobs (status, id);
-- A1: the failed jobs of one error class, newest first (only jobs that failed carry one).
CREATE INDEX jobs_search_error_idx ON {schema}.jobs (error_class, id) WHERE error_class IS NOT NULL;
-- A1: counts per status, queue and actor, read by an index-only scan instead of the table.
CREATE INDEX jobs_search_counts_idx ON {schema}.jobs (status, queue, actor);
-- A1/A2: the same over the archive (pruned terminal jobs).
CREATE INDEX jobs_archive_search_status_idx ON {schema}.jobs_archive (status, id);
CREATE INDEX jobs_archive_search_error_idx ON {schema}.jobs_archive (error_class, id)
  WHERE error_class IS NOT NULL;
CREATE INDEX jobs_archive_search_counts_idx ON {schema}.jobs_archive (status, queue, actor);
