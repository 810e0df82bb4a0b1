package io.taskq.examples;

import io.taskq.core.Actor;
import io.taskq.core.TaskQConfig;
import io.taskq.postgres.JobRequest;
import io.taskq.postgres.JobsClient;
import io.taskq.postgres.TaskQ;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The README demo: TaskQ in process, a few thousand jobs, a live progress bar and a summary.
 *
 * <p>Works in its own schema {@code taskq_demo}, recreated on every run. The database is {@code
 * TASKQ_DATABASE_URL} when set, else the PostgreSQL on localhost, else an embedded one (D5).
 */
public final class Demo {
  static final String SCHEMA = "taskq_demo";
  static final int EMAILS = 4000;
  static final int REPORTS = 100;
  static final int PAYMENTS = 900;
  static final int LATENCY_PROBES = 200;

  private Demo() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> env = System.getenv();
    try (DemoDatabase db = DemoDatabase.find(env)) {
      System.out.println("TaskQ demo on " + db.description);
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
              .workerConcurrency(8)
              .build();
      DemoReport report = new DemoReport(watch, "\"" + SCHEMA + "\"");
      try (TaskQ taskq = TaskQ.builder().config(config).build()) {
        for (Actor<?> actor : DemoActors.all()) {
          taskq.register(actor);
        }
        taskq.start();
        JobsClient jobs = taskq.jobs();
        long started = System.nanoTime();
        List<Long> ids = jobs.enqueueAll(batch());
        long first = ids.get(0);
        long last = ids.get(ids.size() - 1);
        System.out.printf(Locale.ROOT, "Enqueued %d jobs in one round trip%n", ids.size());
        DemoReport.Counts counts = follow(report, first, last, ids.size());
        double seconds = (System.nanoTime() - started) / 1e9;
        double[] pickup = probeLatency(jobs, report);
        summary(counts, ids.size(), seconds, pickup);
      }
    }
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

  private static DemoReport.Counts follow(DemoReport report, long first, long last, long total)
      throws Exception {
    // Redraw one line in a terminal; in CI logs print a line a second instead.
    boolean tty = System.getenv("CI") == null;
    long lastLine = 0;
    while (true) {
      DemoReport.Counts counts = report.counts(first, last);
      boolean done = counts.finished() >= total;
      long now = System.nanoTime();
      if (tty) {
        System.out.print("\r" + DemoReport.bar(counts, total));
      } else if (done || now - lastLine > 1_000_000_000L) {
        System.out.println(DemoReport.bar(counts, total));
        lastLine = now;
      }
      if (done) {
        if (tty) {
          System.out.println();
        }
        return counts;
      }
      Thread.sleep(200);
    }
  }

  /** Single jobs, one every 5 ms, each picked up through LISTEN/NOTIFY. */
  private static double[] probeLatency(JobsClient jobs, DemoReport report) throws Exception {
    long first = 0;
    long last = 0;
    for (int i = 0; i < LATENCY_PROBES; i++) {
      long id = jobs.enqueue(JobRequest.of(DemoActors.SEND_EMAIL, "{\"probe\":" + i + "}"));
      first = i == 0 ? id : first;
      last = id;
      Thread.sleep(5);
    }
    while (report.counts(first, last).finished() < LATENCY_PROBES) {
      Thread.sleep(50);
    }
    return report.pickupMillis(first, last);
  }

  private static void summary(
      DemoReport.Counts counts, long total, double seconds, double[] pickup) {
    System.out.println();
    System.out.println("Summary");
    System.out.printf(Locale.ROOT, "  jobs done        %d of %d%n", counts.succeeded(), total);
    System.out.printf(Locale.ROOT, "  failed for good  %d%n", counts.failed());
    System.out.printf(Locale.ROOT, "  retries          %d%n", counts.retries());
    System.out.printf(Locale.ROOT, "  throughput       %.0f jobs/s%n", total / seconds);
    System.out.printf(
        Locale.ROOT, "  pickup latency   p50 %.1f ms, p99 %.1f ms%n", pickup[0], pickup[1]);
  }
}
