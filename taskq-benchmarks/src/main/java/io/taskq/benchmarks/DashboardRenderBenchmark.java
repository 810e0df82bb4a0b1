package io.taskq.benchmarks;

import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.dashboard.Dashboard;
import io.taskq.dashboard.DashboardServer;
import io.taskq.dashboard.DashboardSettings;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * W1: each dashboard page's render time with 1 000 000 jobs in the table, through the real handler
 * over HTTP (the JDK server the standalone dashboard runs on, a signed-in session, as a browser
 * asks), the p50 and p99 of N renders per page. The target: every page under 200 ms.
 *
 * <p>The rows are made by one {@code INSERT ... SELECT generate_series} (the mix of {@code
 * SearchPlanTest}: 80% succeeded, 8% failed, 8% pending, 2% scheduled, 1% cancelled, 1% crashed; 20
 * actors on 5 queues, 10 error classes, 100 tenants, one job every 100 ms over the last 28 hours),
 * plus an attempt and an event per failed job, then vacuumed and analysed, in schema {@value
 * #SCHEMA} (recreated). The TaskQ is a producer (not started), so no worker or sweep changes the
 * rows while the pages are timed; the figures are the pages' own reads and rendering. The overview,
 * queues and actors pages show job counts read off the request path (the dashboard's inventory, at
 * most 5 s old while someone looks); the cost of that reading is printed after the pages.
 *
 * <p>{@code ./mvnw -B -ntp -q -Pbench -Dbench.main=io.taskq.benchmarks.DashboardRenderBenchmark
 * -DskipTests verify -pl taskq-benchmarks -am}, or {@code java -cp ...
 * io.taskq.benchmarks.DashboardRenderBenchmark [renders per page] [jobs]} (defaults 50, 1 000 000),
 * on {@code TASKQ_DATABASE_URL} or the local PostgreSQL.
 */
public final class DashboardRenderBenchmark {
  static final String SCHEMA = "taskq_bench_dashboard";

  private static final String TOKEN = "render-benchmark-token-0123456789";
  private static final Pattern FIRST_JOB = Pattern.compile("href=\"/taskq/jobs/(\\d+)\"");

  private DashboardRenderBenchmark() {}

  public static void main(String[] args) throws Exception {
    int renders = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    System.out.printf(
        Locale.ROOT,
        "Dashboard render: %d jobs, %d renders per page, %d cores%n",
        jobs,
        renders,
        Runtime.getRuntime().availableProcessors());
    try (BenchDatabase db = BenchDatabase.open(SchemaName.of(SCHEMA), 8)) {
      long started = System.nanoTime();
      DashboardRows.fill(db, jobs);
      System.out.printf(
          Locale.ROOT,
          "  %d jobs made, vacuumed and analysed in %.1f s%n",
          jobs,
          (System.nanoTime() - started) / 1e9);
      render(db, renders);
    }
  }

  /** Times every page on a dashboard over {@code db}, then the readings behind the counts. */
  private static void render(BenchDatabase db, int renders) throws Exception {
    TaskQConfig config = TaskQConfig.builder().schemaName(SCHEMA).build();
    try (TaskQ taskq = TaskQ.builder(db.pool).config(config).migrate(false).build();
        DashboardServer server =
            DashboardServer.start(
                Dashboard.create(taskq, DashboardSettings.builder().token(TOKEN).build()),
                "127.0.0.1",
                0)) {
      DashboardBrowser browser = new DashboardBrowser(server.uri(), TOKEN);
      browser.signIn();
      Map<String, String> pages = pages(browser);
      System.out.printf(Locale.ROOT, "  %-52s %10s %10s %8s%n", "page", "p50", "p99", "bytes");
      for (Map.Entry<String, String> page : pages.entrySet()) {
        timePage(browser, page.getKey(), page.getValue(), renders);
      }
      readings(taskq, renders);
    }
  }

  private static void readings(TaskQ taskq, int renders) {
    System.out.println(
        "  The readings behind overview, queues and actors (off the request path, at most one"
            + " per 5 s while someone looks):");
    reading("operations().queues()", renders, () -> taskq.operations().queues().size());
    reading("operations().actors()", renders, () -> taskq.operations().actors().size());
  }

  /** Renders {@code route} {@code renders} times after a warm-up; prints its p50, p99 and size. */
  private static void timePage(DashboardBrowser browser, String name, String route, int renders)
      throws Exception {
    for (int i = 0; i < 3; i++) {
      browser.get(route); // warm-up: plans cached, classes loaded
    }
    long[] nanos = new long[renders];
    int bytes = 0;
    for (int i = 0; i < renders; i++) {
      long t = System.nanoTime();
      bytes = browser.get(route).length();
      nanos[i] = System.nanoTime() - t;
    }
    printTimes(name, nanos, bytes);
  }

  /** Prints a page's p50 and p99 render time of {@code nanos}, and its size. */
  private static void printTimes(String name, long[] nanos, int bytes) {
    Arrays.sort(nanos);
    double p50 = nanos[nanos.length / 2] / 1e6;
    double p99 = nanos[Math.min(nanos.length - 1, (int) Math.ceil(nanos.length * 0.99) - 1)] / 1e6;
    System.out.printf(
        Locale.ROOT,
        "  %-52s %7.1f ms %7.1f ms %8d%s%n",
        name,
        p50,
        p99,
        bytes,
        p99 < 200 ? "" : "   OVER 200 ms");
  }

  private static void reading(String name, int runs, java.util.function.IntSupplier read) {
    long[] nanos = new long[Math.max(5, runs / 5)];
    int rows = read.getAsInt();
    for (int i = 0; i < nanos.length; i++) {
      long t = System.nanoTime();
      rows = Math.max(rows, read.getAsInt());
      nanos[i] = System.nanoTime() - t;
    }
    Arrays.sort(nanos);
    System.out.printf(
        Locale.ROOT,
        "  %-52s %7.1f ms %7.1f ms %5d rows%n",
        name,
        nanos[nanos.length / 2] / 1e6,
        nanos[nanos.length - 1] / 1e6,
        rows);
  }

  /** Every page, with the route it is timed on. */
  private static Map<String, String> pages(DashboardBrowser browser) throws Exception {
    Map<String, String> pages = new LinkedHashMap<>();
    pages.put("overview", "/");
    pages.put("jobs (newest of all)", "/jobs");
    pages.put("jobs: failed", "/jobs?status=failed");
    pages.put("jobs: failed of one actor", "/jobs?status=failed&actor=actor-7");
    pages.put("jobs: pending of one queue", "/jobs?status=pending&queue=queue-3");
    pages.put("jobs: one error class", "/jobs?error=Error3");
    pages.put("jobs: failed, page 20 (keyset)", pageTwenty(browser));
    Matcher failed = FIRST_JOB.matcher(browser.get("/jobs?status=failed"));
    if (!failed.find()) {
      throw new IllegalStateException("no failed job listed");
    }
    pages.put("job detail (a failed job)", "/jobs/" + failed.group(1));
    pages.put("queues", "/queues");
    pages.put("actors", "/actors");
    pages.put("schedules", "/schedules");
    pages.put("batches", "/batches");
    pages.put(
        "bulk retry confirmation: one actor",
        "/jobs/bulk?action=retry&status=failed&actor=actor-7");
    pages.put(
        "bulk retry confirmation: all failed (capped)", "/jobs/bulk?action=retry&status=failed");
    pages.put("bulk cancel confirmation: one queue", "/jobs/bulk?action=cancel&queue=queue-3");
    return pages;
  }

  private static String pageTwenty(DashboardBrowser browser) throws Exception {
    String route = "/jobs?status=failed";
    Pattern next = Pattern.compile("<a href=\"/taskq([^\"]+)\" id=\"next-page\"");
    for (int i = 1; i < 20; i++) {
      Matcher m = next.matcher(browser.get(route));
      if (!m.find()) {
        throw new IllegalStateException("no next page after page " + i);
      }
      route = m.group(1).replace("&#61;", "=").replace("&amp;", "&");
    }
    return route;
  }
}
