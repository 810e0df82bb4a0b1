package io.taskq.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.SchemaName;
import io.taskq.feed.FeedCursor;
import io.taskq.feed.ReclaimEventFeed;
import io.taskq.feed.ReclaimWatch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The crash-reclaim feed's figures (E1-E4): how many events per second a watch hands to a no-op
 * consumer, and how long an event takes from its writer's COMMIT to the consumer (p50, p99).
 *
 * <p>Works in its own schema {@value #SCHEMA}, dropped and re-created per run. Events are written
 * the way the lease-reclaim sweep writes them: batches in one transaction each, with the
 * microsecond ladder and a {@code pg_notify} on the events channel. Latency is measured with the
 * smallest visibility delay the setting accepts ({@link #VISIBILITY_DELAY}), and printed also
 * without it, so it shows the feed's own cost (the notification, the poll, the transaction-id
 * horizon); the configured delay (2 s by default) adds to that one for one.
 *
 * <p>Call {@link #run(DataSource, Figures)} once per benchmark run; it needs 6 connections.
 */
final class FeedBenchmark {
  static final String SCHEMA = "taskq_bench_feed";
  static final int THROUGHPUT_EVENTS = 20_000;
  static final int WRITE_BATCH = 100;
  static final int LATENCY_WRITERS = 4;
  static final int LATENCY_BATCH = 10;
  static final Duration LATENCY_RUN = Duration.ofSeconds(3);
  static final Duration LATENCY_PACE = Duration.ofMillis(20);

  /**
   * The smallest {@code TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY} the configuration accepts (0 is
   * refused: docs/configuration.md).
   */
  static final Duration VISIBILITY_DELAY = Duration.ofMillis(100);

  private final DataSource ds;
  private final SchemaName schema = SchemaName.of(SCHEMA);
  private final String channel = Roots.eventsChannel(schema);

  private FeedBenchmark(DataSource ds) {
    this.ds = ds;
  }

  /** One run: adds {@code feed.throughput}, {@code feed.latency_p50} and {@code _p99}. */
  static void run(DataSource ds, Figures figures) throws Exception {
    FeedBenchmark bench = new FeedBenchmark(ds);
    bench.recreateSchema();
    try {
      figures.add("feed.throughput", "events/s", bench.throughput());
      double[] latency = bench.latencyMillis();
      figures.add("feed.latency_p50", "ms", percentile(latency, 0.50));
      figures.add("feed.latency_p99", "ms", percentile(latency, 0.99));
      double delay = VISIBILITY_DELAY.toNanos() / 1e6;
      figures.add("feed.latency_beyond_delay_p50", "ms", percentile(latency, 0.50) - delay);
      figures.add("feed.latency_beyond_delay_p99", "ms", percentile(latency, 0.99) - delay);
    } finally {
      bench.dropSchema();
    }
  }

  /** Runs the feed figures alone, once, on {@code TASKQ_DATABASE_URL} or the local database. */
  public static void main(String[] args) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(System.getenv().getOrDefault("TASKQ_DATABASE_URL", BenchDatabase.LOCAL_URL));
    config.setMaximumPoolSize(8);
    config.setPoolName("taskq-bench-feed");
    try (HikariDataSource ds = new HikariDataSource(config)) {
      run(ds, new Figures());
    }
  }

  private double throughput() throws Exception {
    System.out.printf(Locale.ROOT, "  feed: writing %d events...%n", THROUGHPUT_EVENTS);
    for (int written = 0; written < THROUGHPUT_EVENTS; written += WRITE_BATCH) {
      writeBatch(WRITE_BATCH);
    }
    ReclaimEventFeed feed = feed();
    CountDownLatch all = new CountDownLatch(THROUGHPUT_EVENTS);
    long start = System.nanoTime();
    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> all.countDown())) {
      if (!all.await(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException(
            "the watch delivered "
                + (THROUGHPUT_EVENTS - all.getCount())
                + " events in 5 minutes; failure: "
                + watch.failure());
      }
    }
    return THROUGHPUT_EVENTS / Benchmark.seconds(System.nanoTime() - start);
  }

  private double[] latencyMillis() throws Exception {
    System.out.printf(
        Locale.ROOT,
        "  feed: %d writers for %d s, measuring commit-to-consumer latency...%n",
        LATENCY_WRITERS,
        LATENCY_RUN.toSeconds());
    Map<Long, Long> committedAt = new ConcurrentHashMap<>();
    Map<Long, Long> receivedAt = new ConcurrentHashMap<>();
    ReclaimEventFeed feed = feed();
    FeedCursor tail = tail(feed);
    ExecutorService writers = Executors.newFixedThreadPool(LATENCY_WRITERS);
    AtomicLong expected = new AtomicLong();
    try (ReclaimWatch watch =
        feed.watchReclaims(tail, e -> receivedAt.put(e.eventId(), System.nanoTime()))) {
      runWriters(writers, committedAt, expected);
      awaitAll(watch, receivedAt, expected.get());
    } finally {
      writers.shutdownNow();
    }
    return latencies(committedAt, receivedAt);
  }

  /** Runs the paced writers for {@code LATENCY_RUN} and waits for each to end. */
  private void runWriters(ExecutorService writers, Map<Long, Long> committedAt, AtomicLong expected)
      throws Exception {
    List<Future<?>> running = new ArrayList<>();
    long end = System.nanoTime() + LATENCY_RUN.toNanos();
    for (int i = 0; i < LATENCY_WRITERS; i++) {
      running.add(writers.submit(() -> paced(end, committedAt, expected)));
    }
    for (Future<?> f : running) {
      f.get(2, TimeUnit.MINUTES);
    }
  }

  /** Each event's commit-to-delivery time; every committed event must have been delivered. */
  private static double[] latencies(Map<Long, Long> committedAt, Map<Long, Long> receivedAt) {
    double[] millis = new double[committedAt.size()];
    int i = 0;
    for (Map.Entry<Long, Long> e : committedAt.entrySet()) {
      Long received = receivedAt.get(e.getKey());
      if (received == null) {
        throw new IllegalStateException("event " + e.getKey() + " was committed, never delivered");
      }
      millis[i++] = (received - e.getValue()) / 1e6;
    }
    return millis;
  }

  /** One writer: a batch every pace until {@code end}; the COMMIT's start time of each event. */
  private Void paced(long end, Map<Long, Long> committedAt, AtomicLong expected)
      throws SQLException, InterruptedException {
    while (System.nanoTime() < end) {
      try (Connection c = ds.getConnection()) {
        c.setAutoCommit(false);
        List<Long> ids = insert(c, LATENCY_BATCH);
        long commitStart = System.nanoTime();
        c.commit();
        ids.forEach(id -> committedAt.put(id, commitStart));
        expected.addAndGet(ids.size());
      }
      TimeUnit.NANOSECONDS.sleep(LATENCY_PACE.toNanos());
    }
    return null;
  }

  private static void awaitAll(ReclaimWatch watch, Map<Long, Long> receivedAt, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (receivedAt.size() < expected) {
      if (System.nanoTime() > deadline || !watch.isRunning()) {
        throw new IllegalStateException(
            "the watch delivered "
                + receivedAt.size()
                + " of "
                + expected
                + " events; failure: "
                + watch.failure());
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
  }

  private ReclaimEventFeed feed() {
    return Roots.producer(ds, schema, VISIBILITY_DELAY).reclaimEvents();
  }

  /** The cursor after every event written so far. */
  private static FeedCursor tail(ReclaimEventFeed feed) {
    FeedCursor cursor = FeedCursor.beginning();
    while (true) {
      var page = feed.pollReclaimEvents(cursor, ReclaimEventFeed.MAX_LIMIT);
      cursor = page.cursor();
      if (!page.more()) {
        return cursor;
      }
    }
  }

  private void writeBatch(int n) throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      insert(c, n);
      c.commit();
    }
  }

  /** S1's shape: one batched INSERT with the microsecond ladder, and the events notification. */
  private List<Long> insert(Connection c, int n) throws SQLException {
    List<Long> ids = new ArrayList<>(n);
    try (PreparedStatement ps =
        c.prepareStatement(
            "WITH stamp AS MATERIALIZED (SELECT clock_timestamp() AS at)"
                + " INSERT INTO "
                + schema.quoted()
                + ".job_events (job_id, kind, actor, queue, attempt, disposition, error_class,"
                + " error_message, occurred_at)"
                + " SELECT g, 'reclaimed', 'bench', 'default', 1, 'repended', 'WorkerLost',"
                + " 'the worker holding the job stopped heartbeating',"
                + " s.at + (g - 1) * interval '1 microsecond'"
                + " FROM generate_series(1, ?) g CROSS JOIN stamp s ORDER BY g"
                + " RETURNING event_id")) {
      ps.setInt(1, n);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, '')")) {
      ps.setString(1, channel);
      ps.execute();
    }
    return ids;
  }

  static double percentile(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private void recreateSchema() throws SQLException {
    dropSchema();
    Roots.migrate(ds, schema);
  }

  private void dropSchema() throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema.quoted() + " CASCADE");
    }
  }
}
