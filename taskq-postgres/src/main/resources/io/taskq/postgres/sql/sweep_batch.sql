-- The bounded-batch envelope every sweep batch runs in (B2, B3). Used by
-- io.taskq.postgres.internal.sweep.BatchExecutor.

-- name: apply_batch_bounds
-- B3: capture the transaction's statement_timeout and idle_in_transaction_session_timeout, then
-- apply the batch's timeout to both with SET LOCAL semantics and a bindable value (set_config(...,
-- true)); never a session-level SET on a pooled connection. The idle bound is for a client that
-- stops between the batch's statements (a frozen or paused JVM): the server ends its session after
-- the batch's timeout, so its transaction, its row locks and the leader fence's shared lock it
-- holds go with it, and a new leader's barrier is not kept waiting by a batch that will never
-- commit (R7). The OFFSET 0 subquery is evaluated before the outer target list, so the captured
-- values are the ones from before the change.
-- Binds: the batch's timeout in milliseconds, as text, twice.
SELECT c.previous, c.previous_idle, set_config('statement_timeout', ?, true),
       set_config('idle_in_transaction_session_timeout', ?, true)
  FROM (SELECT current_setting('statement_timeout') AS previous,
               current_setting('idle_in_transaction_session_timeout') AS previous_idle
        OFFSET 0) c;

-- name: restore_batch_bounds
-- B3: a nested batch's success path puts the captured values back inside the caller's still-open
-- transaction, so a sweep nested in a caller's transaction (a savepoint) does not leak its bounds
-- onto the caller's later statements. A batch in its own transaction does not run this: its commit
-- ends the SET LOCAL values, and until the commit the idle bound still ends a client frozen after
-- its last statement (R7). The error path needs no restore: rolling back (to the savepoint)
-- restores them.
-- Binds: the captured statement_timeout, the captured idle_in_transaction_session_timeout.
SELECT set_config('statement_timeout', ?, true),
       set_config('idle_in_transaction_session_timeout', ?, true);

-- name: apply_timeout
-- B3: the statement_timeout alone, for the cron tick's shared budget (TickBudget), which applies
-- what is left of it before each statement: capture the transaction's statement_timeout, then
-- apply the given one with SET LOCAL semantics (OFFSET 0: the captured value is the one from
-- before the change). The tick's Java work between statements (planning, interceptors) is bounded
-- by the budget check before the next statement, not by an idle bound.
-- Binds: the timeout in milliseconds, as text.
SELECT c.previous, set_config('statement_timeout', ?, true)
  FROM (SELECT current_setting('statement_timeout') AS previous OFFSET 0) c;

-- name: restore_timeout
-- B3: puts the statement_timeout apply_timeout captured back inside the still-open transaction.
-- Binds: the captured value.
SELECT set_config('statement_timeout', ?, true);
