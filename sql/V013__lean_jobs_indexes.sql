-- TaskQ schema, version 13: fewer index entries per transition, updates on the row's own page (X2).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.
--
-- A job's status changes on every transition, and status is in the predicate of the partial
-- indexes, so no transition can be a HOT update: each one inserts a new entry into every index of
-- jobs whose predicate the new row version meets. Until now a processed job (claim, then success)
-- put eight index entries into the WAL: two each in jobs_pkey and in V007's two search indexes
-- (jobs_search_status_idx (status, id) and jobs_search_counts_idx (status, queue, actor), which
-- cover every row in every state), one in each running-state index (jobs_running_lease_idx,
-- jobs_running_owner_idx) and one in jobs_finished_idx; and each update's new row version went to
-- another page (a freshly inserted page is full), which costs a lock record on top of the update
-- and the update's full row. From this version a processed job writes four index entries:
--
-- * A1 search and counts read the per-state partial indexes instead of two indexes of every row:
--   a pending job is found through jobs_claim_queue_idx, a scheduled one through
--   jobs_scheduled_idx, a running one through jobs_running_idx, a failed, crashed or cancelled one
--   through jobs_search_failures_idx (status, id) below (no entry for a success), a succeeded one
--   by the primary key walked backwards (or jobs_terminal_idx when the finished rows are few), and
--   the counts of the finished rows by an index-only scan of jobs_terminal_idx, which carries
--   status, queue and actor (operations.sql, `counts`). The archive keeps V007's search indexes:
--   its rows are written once, by the prune.
-- * One running-state index, (locked_by, lock_expires_at), for S1's two arms: the heartbeat arm's
--   skip scan over the owners and its lookup of the lost owners' jobs lead with locked_by as
--   before; the lease arm takes the expired leases in (locked_by, lock_expires_at) order, the
--   index's own, and stops at its batch (reclaim.sql).
-- * jobs_terminal_idx replaces jobs_finished_idx: the same key (finished_at) and predicate (S11's
--   prune, the throughput chart, failed_since), with status, queue and actor carried for the
--   counts.
-- * Fill factor 40: inserts leave 60 % of each new page free, so a transition's new row version
--   usually fits on the page of the old one (no lock record, and the update is logged against one
--   page). This changes no existing page, only the pages written from now on.
--
-- On a large existing table each CREATE INDEX below holds a write lock on jobs while it builds
-- (as any CREATE INDEX). To avoid that, build the three indexes by hand first, with the same
-- definitions and CREATE INDEX CONCURRENTLY (outside a transaction, one at a time); this file then
-- finds them (IF NOT EXISTS) and only drops the old indexes and sets the fill factor, each a
-- moment's lock (docs/upgrading.md).
CREATE INDEX IF NOT EXISTS jobs_running_idx ON {schema}.jobs (locked_by, lock_expires_at)
  WHERE status = 'running';
CREATE INDEX IF NOT EXISTS jobs_terminal_idx ON {schema}.jobs (finished_at)
  INCLUDE (status, queue, actor)
  WHERE status IN ('succeeded', 'failed', 'crashed', 'cancelled');
CREATE INDEX IF NOT EXISTS jobs_search_failures_idx ON {schema}.jobs (status, id)
  WHERE status IN ('failed', 'crashed', 'cancelled');
DROP INDEX IF EXISTS {schema}.jobs_search_status_idx;
DROP INDEX IF EXISTS {schema}.jobs_search_counts_idx;
DROP INDEX IF EXISTS {schema}.jobs_running_lease_idx;
DROP INDEX IF EXISTS {schema}.jobs_running_owner_idx;
DROP INDEX IF EXISTS {schema}.jobs_finished_idx;
ALTER TABLE {schema}.jobs SET (fillfactor = 40);
