package io.taskq.benchmarks;

import java.sql.SQLException;

/**
 * The rows the dashboard benchmark pages through: {@code SearchPlanTest}'s mix (80% succeeded, 8%
 * failed, 8% pending, 2% scheduled, 1% cancelled, 1% crashed; 20 actors on 5 queues, 10 error
 * classes, 100 tenants, one job every 100 ms), an attempt and an event per failed job, then
 * vacuumed and analysed.
 */
final class DashboardRows {
  private DashboardRows() {}

  /** The rows of {@code SearchPlanTest}'s mix, by one statement per table. */
  static void fill(BenchDatabase db, int n) throws SQLException {
    db.execute(
        "INSERT INTO "
            + db.table("jobs")
            + " (actor, queue, status, payload, labels, run_at, attempt, max_attempts,"
            + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, error_class,"
            + " error_message, created_at, finished_at)"
            + " SELECT 'actor-' || (n % 20), 'queue-' || (n % 5), s.status,"
            + "   jsonb_build_object('order', n, 'note', repeat('x', 100)),"
            + "   jsonb_build_object('tenant', 't' || (n % 100)),"
            + "   now() - ("
            + n
            + " - n) * interval '100 ms', 1, 3, 'constant', 10, 10, 0,"
            + "   CASE WHEN s.status = 'failed' THEN 'Error' || (n % 10) END,"
            + "   CASE WHEN s.status = 'failed' THEN 'boom' END,"
            + "   now() - ("
            + n
            + " - n) * interval '100 ms',"
            + "   CASE WHEN s.status IN ('succeeded', 'failed', 'cancelled', 'crashed')"
            + "        THEN now() - ("
            + n
            + " - n) * interval '100 ms' + interval '1 s' END"
            + " FROM generate_series(1, "
            + n
            + ") AS n,"
            + " LATERAL (SELECT CASE WHEN n % 100 < 80 THEN 'succeeded' WHEN n % 100 < 88"
            + "   THEN 'failed' WHEN n % 100 < 96 THEN 'pending' WHEN n % 100 < 98 THEN 'scheduled'"
            + "   WHEN n % 100 < 99 THEN 'cancelled' ELSE 'crashed' END AS status) s");
    db.execute(
        "INSERT INTO "
            + db.table("job_attempts")
            + " (job_id, attempt, outcome, error_class, error_message, error_stack, started_at,"
            + " finished_at) SELECT id, 1, 'failed', error_class, error_message,"
            + " 'java.lang.IllegalStateException: boom' || repeat(chr(10) || '\tat x.Y.z(Y.java:1)', 30),"
            + " finished_at - interval '1 s', finished_at FROM "
            + db.table("jobs")
            + " WHERE status = 'failed'");
    db.execute(
        "INSERT INTO "
            + db.table("job_events")
            + " (job_id, kind, actor, queue, attempt, disposition, error_class, error_message,"
            + " occurred_at) SELECT id, 'failed', actor, queue, 1, 'failed', error_class,"
            + " error_message, finished_at FROM "
            + db.table("jobs")
            + " WHERE status = 'failed'");
    db.execute("VACUUM (ANALYZE) " + db.table("jobs"));
    db.analyze("job_attempts", "job_events");
  }
}
