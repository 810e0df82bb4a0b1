package io.taskq.faults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The SQL invariants every fault scenario ends with (R7). Each rule is one query over the TaskQ
 * schema, the harness's own records ({@code faults.executions}, written by the worker JVMs' handler
 * before it runs) and the server's {@code pg_locks} / {@code pg_stat_activity}; {@link #check}
 * returns every violation with the job it concerns, and an empty list when all hold.
 *
 * <ol>
 *   <li>{@code settled}: once the scenario is over, every job is terminal, or legitimately waiting
 *       ({@code pending} / {@code scheduled} with an attempt left); none is {@code running}.
 *   <li>{@code terminal-once}: a terminal job reached a terminal state exactly once (its success on
 *       the job row or a succeeded attempt row, plus every event that ends the job), a waiting job
 *       never.
 *   <li>{@code attempt-bounds}: {@code 0 <= attempt <= max_attempts}, {@code max_attempts} is the
 *       policy's, a finished run has at least one attempt, no execution has an attempt number
 *       outside {@code 1..max_attempts}.
 *   <li>{@code claimed-twice}: no lease token ran twice; no (job, attempt) ran twice, unless that
 *       attempt was handed back (a {@code released} or free {@code snoozed} attempt row: the next
 *       claim reuses the number); no (job, attempt) has two attempt rows but for those; no job
 *       succeeded twice ({@code job_attempt_history}); a succeeded job's last attempt ran (an
 *       execution record of it exists).
 *   <li>{@code last-event}: a job's status is the one its last event (by event id) left it in, when
 *       that event ends the job; a succeeded or waiting job's last event does not end it.
 *   <li>{@code expired-lease}: no {@code running} row whose lease passed more than {@code grace}
 *       ago (the reclaim sweep should have taken it).
 *   <li>{@code dead-lock-holder}: no granted lock (advisory, row, transaction) held by a backend
 *       {@code pg_stat_activity} does not show, or by the backend of a worker JVM that is dead (its
 *       {@code application_name} is {@code faults-worker-<pid>}).
 * </ol>
 */
final class InvariantChecker {
  /**
   * One broken invariant: the rule, the job (0 when the rule is not about a job), what was seen.
   */
  record Violation(String rule, long jobId, String detail) {
    @Override
    public String toString() {
      return rule + (jobId != 0 ? " job " + jobId : "") + ": " + detail;
    }
  }

  private static final String TERMINAL = "('succeeded', 'failed', 'crashed', 'cancelled')";

  /** What an event left its job in; NULL for an event that says nothing of the status. */
  private static final String IMPLIED =
      "CASE WHEN e.disposition = 'repended' THEN 'pending'"
          + " WHEN e.disposition IN ('pending', 'scheduled', 'running', 'succeeded', 'failed',"
          + " 'crashed', 'cancelled') THEN e.disposition"
          + " WHEN e.kind IN ('retried', 'snoozed', 'released', 'manually_retried') THEN 'pending'"
          + " WHEN e.kind IN ('failed', 'deadline_exceeded', 'discarded') THEN 'failed'"
          + " WHEN e.kind = 'cancelled' THEN 'cancelled' END";

  private final String s;
  private final String h;
  private final int maxAttempts;
  private final Duration grace;

  /**
   * @param taskqSchema the TaskQ schema
   * @param harnessSchema the schema of {@code executions}
   * @param maxAttempts the policy's bound on attempts
   * @param grace how long past its lease a running row may stay before it counts as not reclaimed
   */
  InvariantChecker(String taskqSchema, String harnessSchema, int maxAttempts, Duration grace) {
    this.s = FaultWorkerMain.quote(taskqSchema);
    this.h = FaultWorkerMain.quote(harnessSchema);
    this.maxAttempts = maxAttempts;
    this.grace = grace;
  }

  /**
   * Runs every rule.
   *
   * @param c a connection to the cluster
   * @param liveWorkerPids the worker JVMs still alive (a lock of any other {@code faults-worker-}
   *     session is a dead process's)
   * @return the violations, empty when every invariant holds
   */
  List<Violation> check(Connection c, Collection<Long> liveWorkerPids) throws SQLException {
    List<Violation> out = new ArrayList<>();
    settled(c, out);
    terminalOnce(c, out);
    attemptBounds(c, out);
    claimedTwice(c, out);
    lastEvent(c, out);
    expiredLease(c, out);
    deadLockHolders(c, Set.copyOf(liveWorkerPids), out);
    return out;
  }

  private void settled(Connection c, List<Violation> out) throws SQLException {
    query(
        c,
        out,
        "settled",
        "SELECT id, 'status ' || status || ', attempt ' || attempt || ' of ' || max_attempts"
            + " FROM "
            + s
            + ".jobs WHERE status NOT IN "
            + TERMINAL
            + " AND NOT (status IN ('pending', 'scheduled') AND attempt < max_attempts)"
            + " ORDER BY id");
  }

  private void terminalOnce(Connection c, List<Violation> out) throws SQLException {
    query(
        c,
        out,
        "terminal-once",
        "WITH ends AS ("
            + " SELECT j.id, j.status,"
            + " (SELECT count(*) FROM "
            + s
            + ".job_events e WHERE e.job_id = j.id AND ("
            + IMPLIED
            + ") IN "
            + TERMINAL
            + ")"
            + " + (SELECT count(*) FROM "
            + s
            + ".job_attempt_history a WHERE a.job_id = j.id AND a.outcome = 'succeeded') AS n"
            + " FROM "
            + s
            + ".jobs j)"
            + " SELECT id, 'status ' || status || ' but ' || n || ' terminal transitions'"
            + " FROM ends WHERE n <> CASE WHEN status IN "
            + TERMINAL
            + " THEN 1 ELSE 0 END ORDER BY id");
  }

  private void attemptBounds(Connection c, List<Violation> out) throws SQLException {
    query(
        c,
        out,
        "attempt-bounds",
        "SELECT id, 'attempt ' || attempt || ', max_attempts ' || max_attempts || ', status '"
            + " || status FROM "
            + s
            + ".jobs WHERE attempt < 0 OR attempt > max_attempts OR max_attempts <> "
            + maxAttempts
            + " OR (status IN ('succeeded', 'failed', 'crashed') AND attempt < 1) ORDER BY id");
    query(
        c,
        out,
        "attempt-bounds",
        "SELECT x.job_id, 'an execution of attempt ' || x.attempt || ' (pid ' || x.pid || ')'"
            + " FROM "
            + h
            + ".executions x WHERE x.attempt < 1 OR x.attempt > "
            + maxAttempts
            + " ORDER BY x.job_id");
  }

  private void claimedTwice(Connection c, List<Violation> out) throws SQLException {
    query(
        c,
        out,
        "claimed-twice",
        "SELECT min(job_id), 'lease token ' || lease_token || ' ran ' || count(*) || ' times (pids '"
            + " || string_agg(pid::text, ', ' ORDER BY id) || ')' FROM "
            + h
            + ".executions WHERE lease_token IS NOT NULL GROUP BY lease_token HAVING count(*) > 1"
            + " ORDER BY 1");
    query(
        c,
        out,
        "claimed-twice",
        "WITH runs AS (SELECT job_id, attempt, count(*) AS n,"
            + " string_agg(pid::text, ', ' ORDER BY id) AS pids FROM "
            + h
            + ".executions GROUP BY job_id, attempt),"
            + " handed_back AS (SELECT job_id, attempt, count(*) AS n FROM "
            + s
            + ".job_attempts WHERE outcome IN ('released', 'snoozed') GROUP BY job_id, attempt)"
            + " SELECT r.job_id, 'attempt ' || r.attempt || ' ran ' || r.n || ' times (pids '"
            + " || r.pids || ')' FROM runs r LEFT JOIN handed_back b USING (job_id, attempt)"
            + " WHERE r.n > 1 + COALESCE(b.n, 0) ORDER BY 1");
    query(
        c,
        out,
        "claimed-twice",
        "SELECT job_id, 'attempt ' || attempt || ' has ' || count(*) || ' attempt rows ('"
            + " || string_agg(outcome, ', ' ORDER BY id) || ')' FROM "
            + s
            + ".job_attempts GROUP BY job_id, attempt"
            + " HAVING count(*) FILTER (WHERE outcome NOT IN ('released', 'snoozed')) > 1"
            + " ORDER BY 1");
    query(
        c,
        out,
        "claimed-twice",
        "SELECT job_id, 'succeeded ' || count(*) || ' times (attempts '"
            + " || string_agg(attempt::text, ', ' ORDER BY attempt) || ')' FROM "
            + s
            + ".job_attempt_history WHERE outcome = 'succeeded' GROUP BY job_id"
            + " HAVING count(*) > 1 ORDER BY 1");
    query(
        c,
        out,
        "claimed-twice",
        "SELECT j.id, 'succeeded at attempt ' || j.attempt || ', which never ran' FROM "
            + s
            + ".jobs j WHERE j.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM "
            + h
            + ".executions x WHERE x.job_id = j.id AND x.attempt = j.attempt) ORDER BY 1");
  }

  private void lastEvent(Connection c, List<Violation> out) throws SQLException {
    query(
        c,
        out,
        "last-event",
        "SELECT j.id, 'status ' || j.status || ', last event ' || l.kind || ' ('"
            + " || COALESCE(l.disposition, '-') || ') leaves it ' || l.implied FROM "
            + s
            + ".jobs j CROSS JOIN LATERAL (SELECT e.kind, e.disposition, "
            + IMPLIED
            + " AS implied FROM "
            + s
            + ".job_events e WHERE e.job_id = j.id ORDER BY e.event_id DESC LIMIT 1) l"
            + " WHERE (l.implied IN "
            + TERMINAL
            + " AND l.implied <> j.status)"
            + " OR (j.status NOT IN ('failed', 'crashed', 'cancelled') AND l.implied IN "
            + TERMINAL
            + ") ORDER BY 1");
  }

  private void expiredLease(Connection c, List<Violation> out) throws SQLException {
    query(
        c,
        out,
        "expired-lease",
        "SELECT id, 'running on ' || COALESCE(locked_by, '?') || ', lease expired '"
            + " || date_trunc('milliseconds', clock_timestamp() - lock_expires_at) || ' ago' FROM "
            + s
            + ".jobs WHERE status = 'running' AND lock_expires_at < clock_timestamp() - "
            + grace.toMillis()
            + " * interval '1 millisecond' ORDER BY id");
  }

  private void deadLockHolders(Connection c, Set<Long> live, List<Violation> out)
      throws SQLException {
    String sql =
        "SELECT l.pid, l.locktype, COALESCE(l.objid::text, l.transactionid::text,"
            + " l.relation::regclass::text, ''), a.pid IS NULL, COALESCE(a.application_name, '')"
            + " FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
            + " WHERE l.granted AND l.pid IS NOT NULL AND l.pid <> pg_backend_pid()"
            + " AND l.locktype IN ('advisory', 'transactionid', 'tuple', 'relation')"
            + " ORDER BY l.pid";
    try (PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String what = rs.getString(2) + " lock " + rs.getString(3) + " of backend " + rs.getInt(1);
        String app = rs.getString(5);
        if (rs.getBoolean(4)) {
          out.add(new Violation("dead-lock-holder", 0, what + ", not in pg_stat_activity"));
        } else if (app.matches("faults-worker-\\d+")) {
          long pid = Long.parseLong(app.substring("faults-worker-".length()));
          if (!live.contains(pid) || ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
            out.add(
                new Violation(
                    "dead-lock-holder", 0, what + ", whose worker JVM " + pid + " is dead"));
          }
        }
      }
    }
  }

  private static void query(Connection c, List<Violation> out, String rule, String sql)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new Violation(rule, rs.getLong(1), rs.getString(2)));
      }
    } catch (SQLException e) {
      throw new SQLException("invariant " + rule + " could not be checked: " + e.getMessage(), e);
    }
  }
}
