-- The migration runner's own statements (U1). {schema} is the validated, quoted schema (M3).

-- name: schema_exists
-- Checked before CREATE SCHEMA so a role without CREATE on the database can still run an
-- already-created schema's migrations.
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?)

-- name: create_schema
CREATE SCHEMA IF NOT EXISTS {schema}

-- name: lock
-- U1/M1: the session advisory lock taskq:migrate:{schema}; one migrator per schema at a time.
SELECT pg_advisory_lock(?)

-- name: unlock
SELECT pg_advisory_unlock(?)

-- name: create_history
CREATE TABLE IF NOT EXISTS {schema}.schema_migrations (
  version     integer     PRIMARY KEY,
  name        text        NOT NULL,
  -- SHA-256 (hex) of the file's text, line endings normalised to \n, before substitution.
  checksum    text        NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT clock_timestamp()
)

-- name: history_exists
-- A7: has the schema a history table? Checked before creating it, so a role without CREATE can
-- apply (nothing) to, verify and read a current schema. Binds: the qualified, quoted table name.
SELECT to_regclass(?) IS NOT NULL

-- name: applied_at
-- A7: the history with its times, for status and verify.
SELECT version, name, checksum, applied_at FROM {schema}.schema_migrations ORDER BY version

-- name: applied
SELECT version, name, checksum FROM {schema}.schema_migrations ORDER BY version

-- name: record
INSERT INTO {schema}.schema_migrations (version, name, checksum) VALUES (?, ?, ?)
