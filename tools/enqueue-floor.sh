#!/usr/bin/env bash
# X3's floor: what 1 000-row inserts cost in TaskQ's jobs table and in variants of it, beside the
# raw baseline's table, with nothing of the client (docs/benchmarks.md, "Enqueue's floor").
#
# Usage: tools/enqueue-floor.sh [schema] [transactions]
#   schema        a migrated TaskQ schema whose jobs table the variants copy (default taskq_bench,
#                 the one the benchmark leaves behind)
#   transactions  pgbench transactions in all (default 3300), drawn at random over the variants
#
# Connects with the PG* variables (PGHOST, PGPORT, PGUSER, PGDATABASE), as psql and pgbench do.
# Creates (and first drops) the schema enqueue_floor with one table per variant; each pgbench
# transaction is one `INSERT ... SELECT ... FROM generate_series(1, 1000)` of pending rows into one
# variant, committed on its own (so the commit's WAL flush is in the figure, as in an enqueue).
# One pgbench run draws the variants at random, so they all see the same machine load; it prints
# per variant the transactions, the 25th percentile and median latency, the raw table's median
# over the variant's, and the WAL per row (pg_stat_statements when it is loaded, else blank).
set -euo pipefail

schema="${1:-taskq_bench}"
transactions="${2:-3300}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
psql_q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }

jobs_columns="actor, queue, status, priority, payload, labels, run_at, max_attempts, retry_backoff,"
jobs_columns+=" retry_base_ms, retry_cap_ms, retry_jitter, created_at"
jobs_values="'bench-noop', 'default', 'pending', 0, ('{\"n\":' || g || '}')::jsonb, '{}', now(), 20,"
jobs_values+=" 'exponential', 1000, 600000, 0.2, now()"

# name|what it is|columns|values
variants=(
  "raw|the raw baseline's table: primary key, (queue, id) WHERE status = 'pending'|status, payload|'pending', ('{\"n\":' || g || '}')::jsonb"
  "jobs|jobs as it is (LIKE jobs INCLUDING ALL, its storage parameters)|$jobs_columns|$jobs_values"
  "jobs_ff100|jobs at fill factor 100|$jobs_columns|$jobs_values"
  "jobs_nocheck|jobs without its CHECK constraints|$jobs_columns|$jobs_values"
  "jobs_lane|jobs with the claim index on an integer lane (a stored hash of queue and actor)|$jobs_columns|$jobs_values"
  "jobs_narrow|jobs with 10 stamped or defaulted columns left NULL (a bound, not a design)|actor, queue, status, payload, run_at|'bench-noop', 'default', 'pending', ('{\"n\":' || g || '}')::jsonb, now()"
  "jobs_pk_claim|jobs' row with only the primary key and the claim index, no CHECK, fill factor 100|$jobs_columns|$jobs_values"
  "jobs_pk_queue|jobs' row with only the raw table's two indexes, no CHECK, fill factor 100|$jobs_columns|$jobs_values"
)

psql_q <<SQL
DROP SCHEMA IF EXISTS enqueue_floor CASCADE;
CREATE SCHEMA enqueue_floor;
CREATE TABLE enqueue_floor.raw (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  status text NOT NULL, payload jsonb NOT NULL, run_at timestamptz NOT NULL DEFAULT now(),
  queue text NOT NULL DEFAULT 'bench');
CREATE INDEX ON enqueue_floor.raw (queue, id) WHERE status = 'pending';
CREATE TABLE enqueue_floor.jobs (LIKE "$schema".jobs INCLUDING ALL);
CREATE TABLE enqueue_floor.jobs_ff100 (LIKE "$schema".jobs INCLUDING ALL);
CREATE TABLE enqueue_floor.jobs_nocheck (LIKE "$schema".jobs
  INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING INDEXES);
CREATE TABLE enqueue_floor.jobs_lane (LIKE "$schema".jobs
  INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS);
ALTER TABLE enqueue_floor.jobs_lane ADD PRIMARY KEY (id),
  ADD COLUMN lane integer GENERATED ALWAYS AS (hashtext(queue || chr(31) || actor)) STORED;
CREATE TABLE enqueue_floor.jobs_narrow (LIKE "$schema".jobs INCLUDING ALL);
ALTER TABLE enqueue_floor.jobs_narrow
  ALTER labels DROP NOT NULL, ALTER labels DROP DEFAULT, ALTER attempt DROP NOT NULL,
  ALTER attempt DROP DEFAULT, ALTER snoozes DROP NOT NULL, ALTER snoozes DROP DEFAULT,
  ALTER priority DROP NOT NULL, ALTER priority DROP DEFAULT, ALTER created_at DROP NOT NULL,
  ALTER created_at DROP DEFAULT, ALTER max_attempts DROP NOT NULL,
  ALTER retry_backoff DROP NOT NULL, ALTER retry_base_ms DROP NOT NULL,
  ALTER retry_cap_ms DROP NOT NULL, ALTER retry_jitter DROP NOT NULL;
CREATE TABLE enqueue_floor.jobs_pk_claim (LIKE "$schema".jobs INCLUDING DEFAULTS INCLUDING IDENTITY);
ALTER TABLE enqueue_floor.jobs_pk_claim ADD PRIMARY KEY (id);
CREATE INDEX ON enqueue_floor.jobs_pk_claim (queue, actor, priority, run_at, id)
  WHERE status = 'pending';
CREATE TABLE enqueue_floor.jobs_pk_queue (LIKE "$schema".jobs INCLUDING DEFAULTS INCLUDING IDENTITY);
ALTER TABLE enqueue_floor.jobs_pk_queue ADD PRIMARY KEY (id);
CREATE INDEX ON enqueue_floor.jobs_pk_queue (queue, id) WHERE status = 'pending';
-- The lane variant: every index of jobs but the claim index, which keys on the lane instead.
DO \$\$
DECLARE d text;
BEGIN
  FOR d IN SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
            WHERE i.indrelid = '"$schema".jobs'::regclass AND NOT i.indisprimary
              AND pg_get_indexdef(i.indexrelid) NOT LIKE '%(queue, actor, priority, run_at, id)%'
  LOOP
    EXECUTE regexp_replace(d, '^CREATE (UNIQUE )?INDEX \S+ ON \S+', 'CREATE \1INDEX ON enqueue_floor.jobs_lane');
  END LOOP;
END \$\$;
CREATE INDEX ON enqueue_floor.jobs_lane (lane, priority, run_at, id) WHERE status = 'pending';
SQL
# LIKE copies no storage parameters: give the copies jobs' own (its fill factor), except the two
# variants that measure fill factor 100.
options="$(psql -X -At -c "SELECT array_to_string(reloptions, ', ') FROM pg_class
  WHERE oid = '\"$schema\".jobs'::regclass")"
if [ -n "$options" ]; then
  for t in jobs jobs_nocheck jobs_lane jobs_narrow; do
    psql_q -c "ALTER TABLE enqueue_floor.$t SET ($options)"
  done
fi

scripts=()
names=()
for v in "${variants[@]}"; do
  IFS='|' read -r name what columns values <<<"$v"
  echo "INSERT INTO enqueue_floor.$name ($columns) SELECT $values FROM generate_series(1, 1000) g;" \
    >"$work/$name.sql"
  scripts+=(-f "$work/$name.sql@1")
  names+=("$name")
  printf '%-14s %s\n' "$name" "$what"
done

stats=false
if psql -X -At -c "SELECT pg_stat_statements_reset()" >/dev/null 2>&1; then
  stats=true
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$work" && pgbench -n -c 1 -t "$transactions" -l --log-prefix=tx "${scripts[@]}" >"$work/pgbench.out")
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

raw_median=""
printf '%-14s %6s %8s %8s %8s %8s\n' variant n p25_ms median_ms raw/this wal/row
for i in "${!names[@]}"; do
  name="${names[$i]}"
  awk -v s="$i" '$4 == s { print $3 / 1000 }' "$work"/tx* | sort -n >"$work/lat"
  n="$(wc -l <"$work/lat")"
  p25="$(sed -n "$((n / 4 + 1))p" "$work/lat")"
  median="$(sed -n "$((n / 2 + 1))p" "$work/lat")"
  raw_median="${raw_median:-$median}"
  wal=""
  if $stats; then
    wal="$(psql -X -At -c "SELECT round(sum(wal_bytes) / sum(rows)) FROM pg_stat_statements
      WHERE query LIKE 'INSERT INTO enqueue_floor.$name (%'")"
  fi
  printf '%-14s %6d %8.2f %8.2f %8.2f %8s\n' "$name" "$n" "$p25" "$median" \
    "$(awk -v a="$raw_median" -v b="$median" 'BEGIN { print a / b }')" "$wal"
done
