-- The bounded-batch envelope every sweep batch runs in (B2, B3). Used by
-- io.taskq.postgres.internal.sweep.BatchExecutor.

-- name: apply_timeout
-- B3: capture the transaction's statement_timeout, then apply the batch's with SET LOCAL
-- semantics and a bindable value (set_config(..., true)); never a session-level SET on a pooled
-- connection. The OFFSET 0 subquery is evaluated before the outer target list, so the captured
-- value is the one from before the change.
-- Binds: the batch's timeout in milliseconds, as text.
SELECT c.previous, set_config('statement_timeout', ?, true)
  FROM (SELECT current_setting('statement_timeout') AS previous OFFSET 0) c;

-- name: restore_timeout
-- B3: the success path puts the captured value back inside the still-open transaction, so a
-- sweep nested in a caller's transaction (a savepoint) does not leak its bound onto the caller's
-- later statements. The error path needs no restore: rolling back (to the savepoint) restores it.
-- Binds: the captured value.
SELECT set_config('statement_timeout', ?, true);
