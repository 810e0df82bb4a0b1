-- TaskQ schema, version 5: the concurrency key of a job (L7).
--
-- The schema name is the only substitution: every occurrence of {schema} is replaced by the
-- validated, quoted identifier (M3), as in V001.

-- L7: the key a keyed concurrency cap counts a job under ("at most 3 running jobs per customer
-- id"), given at enqueue. NULL for a job without one. The cap itself is the actor's keyed cap,
-- declared where the actor is registered, so the key alone caps nothing: a job counts against
-- its key's slots (reservation_slots, scope_kind 'key', scope_name '{actor}:{key}') only while its
-- actor declares a keyed cap. No index: the claim reads the key of rows it already found through
-- jobs_claim_idx.
ALTER TABLE {schema}.jobs ADD COLUMN concurrency_key text;
ALTER TABLE {schema}.jobs ADD CONSTRAINT jobs_concurrency_key_check
  CHECK (concurrency_key IS NULL OR length(concurrency_key) BETWEEN 1 AND 256);

-- S11: prune moves terminal jobs here column by column; the archive keeps the key. The archive
-- keeps the shape "every jobs column, in the jobs order, then archived_at" (V001), so archived_at
-- moves behind the new column: one rewrite of the archive at upgrade time (it holds only what
-- prune moved and archive_expiry has not yet dropped).
ALTER TABLE {schema}.jobs_archive ADD COLUMN concurrency_key text;
ALTER TABLE {schema}.jobs_archive RENAME COLUMN archived_at TO archived_at_before_v5;
ALTER TABLE {schema}.jobs_archive ADD COLUMN archived_at timestamptz;
UPDATE {schema}.jobs_archive SET archived_at = archived_at_before_v5;
DROP INDEX {schema}.jobs_archive_archived_idx;
ALTER TABLE {schema}.jobs_archive DROP COLUMN archived_at_before_v5;
ALTER TABLE {schema}.jobs_archive
  ALTER COLUMN archived_at SET NOT NULL,
  ALTER COLUMN archived_at SET DEFAULT clock_timestamp();
CREATE INDEX jobs_archive_archived_idx ON {schema}.jobs_archive (archived_at);
