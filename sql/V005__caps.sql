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

-- S11: prune moves terminal jobs here column by column; the archive keeps the key.
ALTER TABLE {schema}.jobs_archive ADD COLUMN concurrency_key text;
