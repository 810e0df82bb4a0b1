package io.taskq.examples;

import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.dashboard.Dashboard;
import io.taskq.dashboard.DashboardServer;
import io.taskq.dashboard.DashboardSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The README demo: TaskQ in process, a few thousand jobs, a live progress bar and a summary.
 *
 * <p>Works in its own schema {@code taskq_demo}, recreated on every run. The database is {@code
 * TASKQ_DATABASE_URL} when set, else database {@code test} on localhost, else an embedded
 * PostgreSQL (D5); the demo prints which before it touches anything. It serves the dashboard,
 * read-only, on 127.0.0.1 ({@code TASKQ_DASHBOARD_PORT}, else a free port) while it runs, and with
 * {@code -Dtaskq.demo.wait=true} (bin/demo in a terminal) keeps it up after the summary until
 * Enter.
 */
public final class Demo {
  static final String SCHEMA = "taskq_demo";
  static final int EMAILS = 4000;
  static final int REPORTS = 100;
  static final int PAYMENTS = 900;
  static final int LATENCY_PROBES = 200;
  static final int CONCURRENCY = 8;

  /** Set by bin/demo in a terminal: keep the dashboard up after the summary until Enter. */
  static final String WAIT_PROPERTY = "taskq.demo.wait";

  private static final PrintStream OUT = System.out;

  private Demo() {}

  /** Runs the demo; {@code TASKQ_*} variables other than the database URL apply too. */
  public static void main(String[] args) throws Exception {
    Map<String, String> env = System.getenv();
    OUT.println("TaskQ demo: looking for a PostgreSQL (TASKQ_DATABASE_URL, else localhost:5432)");
    try (DemoDatabase db = DemoDatabase.find(env, OUT)) {
      OUT.println(
          "Using "
              + db.description
              + "; the demo works in schema "
              + SCHEMA
              + ", dropped and recreated now");
      run(db, env);
    }
  }

  private static void run(DemoDatabase db, Map<String, String> env) throws Exception {
    try (Connection watch = DriverManager.getConnection(db.jdbcUrl)) {
      try (Statement s = watch.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS \"" + SCHEMA + "\" CASCADE");
      }
      TaskQConfig config =
          TaskQConfig.builder(env)
              .databaseUrl(db.jdbcUrl)
              .schemaName(SCHEMA)
              .workerConcurrency(CONCURRENCY)
              .build();
      DemoReport report = new DemoReport(watch, "\"" + SCHEMA + "\"");
      DemoStats stats = new DemoStats();
      try (TaskQ taskq = TaskQ.builder().config(config).build()) {
        for (Actor<?> actor : DemoActors.all(stats)) {
          taskq.register(actor);
        }
        OUT.println("Starting TaskQ: migrating the schema, " + CONCURRENCY + " worker threads");
        taskq.start();
        demoWithDashboard(taskq, config, report, stats, db);
      }
    }
  }

  /**
   * Runs the demo while the read-only dashboard is up; with {@code -Dtaskq.demo.wait=true} the
   * dashboard stays up until Enter is pressed.
   */
  private static void demoWithDashboard(
      TaskQ taskq, TaskQConfig config, DemoReport report, DemoStats stats, DemoDatabase db)
      throws Exception {
    try (DashboardServer dashboard = dashboard(taskq, config)) {
      OUT.println("Dashboard (read-only) at " + dashboard.uri() + " while the demo runs");
      demo(taskq, report, stats, db);
      if (Boolean.getBoolean(WAIT_PROPERTY)) {
        OUT.println();
        OUT.println("The dashboard stays up at " + dashboard.uri() + ": press Enter to end.");
        new BufferedReader(new InputStreamReader(System.in, Charset.defaultCharset())).readLine();
      }
    }
  }

  /**
   * The dashboard, read-only for anyone on this host: {@code TASKQ_DASHBOARD_PORT} or a free one.
   */
  private static DashboardServer dashboard(TaskQ taskq, TaskQConfig config) {
    DashboardSettings settings =
        DashboardSettings.builder().path(config.dashboardPath()).readOnly(true).build();
    return DashboardServer.start(
        Dashboard.create(taskq, settings), "127.0.0.1", config.dashboardPort());
  }

  private static void demo(TaskQ taskq, DemoReport report, DemoStats stats, DemoDatabase db)
      throws Exception {
    JobsClient jobs = taskq.jobs();
    long started = System.nanoTime();
    List<Long> ids = jobs.enqueueAll(batch());
    OUT.printf(
        Locale.ROOT,
        "Enqueued %d jobs in one round trip (%d emails, %d reports, %d flaky payments)%n",
        ids.size(),
        EMAILS,
        REPORTS,
        PAYMENTS);
    DemoReport.Counts counts = follow(report, ids.get(0), ids.get(ids.size() - 1), started);
    double wall = (System.nanoTime() - started) / 1e9;
    double busy = stats.busySeconds();
    OUT.printf(
        Locale.ROOT, "Sending %d single jobs, one every 5 ms, to time pickup%n", LATENCY_PROBES);
    double[] pickup = probeLatency(jobs, report, stats);
    new DemoSummary(
            counts, ids.size(), wall, busy, CONCURRENCY, pickup[0], pickup[1], db.description)
        .print(OUT);
  }

  private static List<JobRequest> batch() {
    List<JobRequest> requests = new ArrayList<>(EMAILS + REPORTS + PAYMENTS);
    for (int i = 0; i < EMAILS + REPORTS + PAYMENTS; i++) {
      if (i % 50 == 0 && requests.size() < 50 * REPORTS) {
        requests.add(JobRequest.of(DemoActors.RENDER_REPORT, "{\"report\":" + i + "}"));
      } else if (i % 5 == 1) {
        requests.add(
            JobRequest.builder(DemoActors.SYNC_PAYMENT)
                .payloadJson("{\"payment\":" + i + "}")
                .retryPolicy(DemoActors.flakyRetryPolicy())
                .build());
      } else {
        requests.add(
            JobRequest.of(DemoActors.SEND_EMAIL, "{\"to\":\"user" + i + "@example.com\"}"));
      }
    }
    return requests;
  }

  private static DemoReport.Counts follow(
      DemoReport report, long first, long last, long startedNanos) throws Exception {
    long total = last - first + 1;
    // Redraw one line in a terminal; in CI logs print a line a second instead.
    boolean tty = System.getenv("CI") == null;
    long lastLine = 0;
    while (true) {
      DemoReport.Counts counts = report.counts(first, last);
      boolean done = counts.finished() >= total;
      long now = System.nanoTime();
      String line = DemoProgress.line(counts, total, Duration.ofNanos(now - startedNanos));
      if (tty) {
        OUT.print("\r" + line);
        OUT.flush();
      } else if (done || now - lastLine > 1_000_000_000L) {
        OUT.println(line);
        lastLine = now;
      }
      if (done) {
        if (tty) {
          OUT.println();
        }
        return counts;
      }
      Thread.sleep(200);
    }
  }

  /** Single jobs, one every 5 ms, each picked up through LISTEN/NOTIFY. */
  private static double[] probeLatency(JobsClient jobs, DemoReport report, DemoStats stats)
      throws Exception {
    long[] ids = new long[LATENCY_PROBES];
    long[] enqueuedAt = new long[LATENCY_PROBES];
    for (int i = 0; i < LATENCY_PROBES; i++) {
      enqueuedAt[i] = System.nanoTime();
      ids[i] = jobs.enqueue(JobRequest.of(DemoActors.SEND_EMAIL, "{\"probe\":" + i + "}"));
      Thread.sleep(5);
    }
    while (report.counts(ids[0], ids[LATENCY_PROBES - 1]).finished() < LATENCY_PROBES) {
      Thread.sleep(50);
    }
    return stats.pickupMillis(ids, enqueuedAt);
  }
}
