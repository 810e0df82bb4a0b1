package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.feed.FeedCursor;
import io.taskq.testing.ForwardingDataSource;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 8's acceptance, end to end: a running TaskQ with a leader on the real database, its metrics
 * and readiness served by the endpoint configured through the {@code TASKQ_HTTP_*} knobs, read over
 * HTTP. Degradation is driven for real: sweep batches aborted by the server's statement timeout
 * (SQLSTATE 57014) while another connection holds a row lock the batch needs.
 */
@TaskQTest
@Tag("O7")
@Tag("D15")
class ObservabilityAcceptanceTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static final Duration SWEEP_INTERVAL = Duration.ofMillis(300);
  private static final String S1 = "reclaim_expired_locks";
  private static final String SECRET = "s3cr3t-pa55word";

  private final HttpClient http = HttpClient.newHttpClient();
  private final List<AutoCloseable> open = new ArrayList<>();
  private TestServices services;
  private SchemaName schema;
  private TaskQ taskq;
  private TaskQObservability observability;

  @BeforeEach
  void setUp(TestServices services) throws SQLException {
    this.services = services;
    this.schema = SchemaName.of(services.schema());
    try (TaskQ migrator =
        TaskQ.producer(services.dataSource())
            .config(TaskQConfig.builder().schemaName(schema).build())
            .build()) {
      migrator.migrations().apply();
    }
    execute(
        "TRUNCATE {schema}.jobs, {schema}.job_attempts, {schema}.job_events, {schema}.workers,"
            + " {schema}.paused"
            + " CASCADE");
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  // ---- fixture ----

  private TaskQConfig.Builder config() throws IOException {
    return TaskQConfig.builder()
        .schemaName(services.schema())
        .pollInterval(Duration.ofMillis(200))
        .heartbeatInterval(Duration.ofMillis(200))
        .leasePeriod(Duration.ofSeconds(10))
        .shutdownGrace(Duration.ofSeconds(2))
        .sweepInterval(SWEEP_INTERVAL)
        .databasePassword(SECRET)
        .httpBind("127.0.0.1")
        .httpPort(freePort());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Starts a TaskQ with maintenance on, its metrics and the configured endpoint. */
  private void start(TaskQConfig.Builder settings, DataSource dataSource) throws SQLException {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    TaskQMetrics metrics = new TaskQMetrics();
    taskq =
        TaskQObservability.listen(TaskQ.builder(dataSource), metrics)
            .config(settings.build())
            .migrate(false)
            .build();
    open.add(taskq);
    observability = TaskQObservability.attach(taskq, metrics, registry, Duration.ofMillis(200));
    open.add(observability);
    taskq.register(Actor.rawJson("ok", (json, ctx) -> null));
    taskq.register(
        Actor.rawJson(
            "boom",
            (json, ctx) -> {
              throw new IllegalStateException("handler failed");
            }));
    taskq.start();
  }

  private void start(TaskQConfig.Builder settings) throws SQLException {
    start(settings, services.dataSource());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    int port = observability.endpointAddress().orElseThrow().getPort();
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private Scrape scrape() throws IOException, InterruptedException {
    HttpResponse<String> reply = get("/metrics");
    assertThat(reply.statusCode()).isEqualTo(200);
    return new Scrape(reply.body());
  }

  private String ready() throws IOException, InterruptedException {
    HttpResponse<String> reply = get("/ready");
    // Degraded or not, never a 503 while running on a reachable database.
    assertThat(reply.statusCode()).isEqualTo(200);
    return reply.body();
  }

  private String sql(String text) {
    return text.replace("{schema}", schema.quoted());
  }

  private void execute(String text) throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql(text));
    }
  }

  /** A live worker row the test can lock, owning {@code jobs} running jobs whose lease expired. */
  private void expiredJobsOf(String worker, int jobs) throws SQLException {
    execute(
        "INSERT INTO {schema}.workers (id, hostname, pid, queues, concurrency, heartbeat_at)"
            + " VALUES ('"
            + worker
            + "', 'test-host', 1, '{default}', 4, now() + interval '1 hour')");
    for (int i = 0; i < jobs; i++) {
      taskq.jobs().enqueue(JobRequest.builder("victim").maxAttempts(3).build());
    }
    execute(
        "UPDATE {schema}.jobs SET status = 'running', attempt = 1, locked_by = '"
            + worker
            + "', lock_expires_at = clock_timestamp() - interval '1 minute',"
            + " lease_token = nextval('{schema}.lease_token_seq'), started_at = now()"
            + " WHERE actor = 'victim' AND status = 'pending'");
  }

  /** Holds worker {@code id}'s row lock (FOR UPDATE) in an open transaction until closed. */
  private Connection lockWorker(String id) throws SQLException {
    Connection c = services.dataSource().getConnection();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.executeQuery(sql("SELECT * FROM {schema}.workers WHERE id = '" + id + "' FOR UPDATE"))
          .close();
    }
    open.add(
        () -> {
          c.rollback();
          c.close();
        });
    return c;
  }

  private long leaderKey() {
    return AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, schema).key();
  }

  /** A connection of the test's own that holds (or waits for) the leader lock until closed. */
  private CompletableFuture<Void> takeLeaderLock() throws SQLException {
    // Its own session, outside the pool: closing it is what releases the lock.
    Connection c = DriverManager.getConnection(services.jdbcUrl());
    open.add(c);
    return CompletableFuture.runAsync(
        () -> {
          try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_lock(?)")) {
            ps.setLong(1, leaderKey());
            ps.executeQuery().close();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private int leaderPid() throws SQLException {
    long key = leaderKey();
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    + " AND classid::bigint = ? AND objid::bigint = ? AND objsubid = 1")) {
      ps.setLong(1, key >>> 32);
      ps.setLong(2, key & 0xffff_ffffL);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("someone holds the leader lock").isTrue();
        return rs.getInt(1);
      }
    }
  }

  // ---- acceptance ----

  @Test
  @Tag("O1")
  @Tag("O2")
  @Tag("O3")
  @Tag("O4")
  @Tag("O5")
  @Tag("O6")
  void metrics_scrapedOverHttpFromARunningLeader_carryEveryNormativeNameAndItsTags()
      throws Exception {
    start(config());
    await().atMost(PATIENCE).until(taskq::isLeader);
    long ok = taskq.jobs().enqueue(JobRequest.of("ok", "{}"));
    taskq.jobs().enqueue(JobRequest.builder("boom").maxAttempts(1).build());
    taskq.jobs().enqueue(JobRequest.builder("idle").queue("backlog").build());
    expiredJobsOf("w-gone", 2);
    await()
        .atMost(PATIENCE)
        .until(() -> taskq.jobs().find(ok).orElseThrow().status().dbValue().equals("succeeded"));
    taskq.reclaimEvents().pollReclaimEvents(FeedCursor.beginning(), 10);

    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              Scrape s = scrape();
              String sweep = "sweep_name=\"" + S1 + "\"";
              // O1: the sampler's own sweep_name is there from its first read; batches' on abort.
              assertThat(
                      s.value(
                          "taskq_maintenance_leader_sweep_timeouts_total",
                          "sweep_name=\"queue_depth\""))
                  .isNotNull();
              // O2: the label-matched pair.
              assertThat(s.value("taskq_maintenance_leader_sweep_batch_size", sweep))
                  .isEqualTo(100.0);
              assertThat(s.value("taskq_maintenance_leader_sweep_batch_size_configured", sweep))
                  .isEqualTo(100.0);
              // O3: epoch seconds of the last committed batch, recent.
              assertThat(s.value("taskq_maintenance_leader_sweep_last_success_seconds", sweep))
                  .isGreaterThan(System.currentTimeMillis() / 1000.0 - 60);
              // O4: rows per committed batch, and the duration by outcome.
              assertThat(s.value("taskq_maintenance_leader_sweep_rows_count", sweep)).isPositive();
              assertThat(s.value("taskq_maintenance_leader_sweep_rows_sum", sweep))
                  .isGreaterThanOrEqualTo(2.0);
              assertThat(
                      s.value(
                          "taskq_maintenance_leader_sweep_duration_seconds_count",
                          sweep,
                          "outcome=\"committed\""))
                  .isPositive();
              // O5: the reclaimed jobs by actor and disposition.
              assertThat(
                      s.value(
                          "taskq_jobs_reclaimed_total",
                          "actor=\"victim\"",
                          "disposition=\"repended\""))
                  .isEqualTo(2.0);
              // O6: this process leads; the split-brain alert sums this.
              assertThat(s.value("taskq_maintenance_leader_is_leader")).isEqualTo(1.0);
              assertThat(s.value("taskq_maintenance_leader_leader_changes_total")).isEqualTo(1.0);
              // The job lifecycle, by actor and queue.
              String okTags = "actor=\"ok\"";
              String def = "queue=\"default\"";
              assertThat(s.value("taskq_jobs_enqueued_total", okTags, def)).isEqualTo(1.0);
              assertThat(s.value("taskq_jobs_started_total", okTags, def)).isEqualTo(1.0);
              assertThat(s.value("taskq_jobs_succeeded_total", okTags, def)).isEqualTo(1.0);
              assertThat(s.value("taskq_jobs_failed_total", "actor=\"boom\"", def)).isEqualTo(1.0);
              assertThat(
                      s.value(
                          "taskq_jobs_execution_seconds_count",
                          okTags,
                          def,
                          "outcome=\"succeeded\""))
                  .isEqualTo(1.0);
              assertThat(
                      s.value(
                          "taskq_jobs_execution_seconds_count",
                          "actor=\"boom\"",
                          "outcome=\"failed\""))
                  .isEqualTo(1.0);
              assertThat(s.value("taskq_jobs_pickup_latency_seconds_count", okTags, def))
                  .isEqualTo(1.0);
              // The samplers: the unclaimed job waits on its queue.
              assertThat(s.value("taskq_queue_depth", "queue=\"backlog\"")).isEqualTo(1.0);
              assertThat(s.value("taskq_queue_oldest_pending_age_seconds", "queue=\"backlog\""))
                  .isNotNull();
              // The feed: the consumer's lag and the held-back view (D12).
              assertThat(s.value("taskq_events_feed_lag_seconds")).isNotNull();
              assertThat(s.value("taskq_events_feed_held_back")).isNotNull();
              assertThat(s.value("taskq_events_feed_held_back_age_seconds")).isNotNull();
              assertThat(s.value("taskq_events_oldest_transaction_age_seconds")).isNotNull();
            });
    // Bounded tags only: never a job or worker id.
    String text = scrape().toString();
    assertThat(text).doesNotContain("job_id", "worker_id", taskq.workerId(), "w-gone");
    assertThat(ready()).contains("\"event_feed\":{\"held_back_events\":");
  }

  @Test
  @Tag("A4")
  void aPause_showsIn_ready_andAsAGauge_untilItIsResumed() throws Exception {
    start(config());
    await().atMost(PATIENCE).until(() -> ready().contains("\"paused\":{\"queues\":[],"));
    taskq.operations().pause(io.taskq.operations.PauseTarget.queue("emails"), "ops", "smtp down");
    taskq.operations().pause(io.taskq.operations.PauseTarget.actor("boom"), null, null);

    await()
        .atMost(PATIENCE)
        .until(
            () -> ready().contains("\"paused\":{\"queues\":[\"emails\"],\"actors\":[\"boom\"]}"));
    assertThat(scrape().value("taskq_paused", "kind=\"queue\"", "name=\"emails\"")).isEqualTo(1.0);
    assertThat(scrape().value("taskq_paused", "kind=\"actor\"", "name=\"boom\"")).isEqualTo(1.0);

    taskq.operations().resume(io.taskq.operations.PauseTarget.queue("emails"));
    await()
        .atMost(PATIENCE)
        .until(() -> ready().contains("\"paused\":{\"queues\":[],\"actors\":[\"boom\"]}"));
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                Double.valueOf(0.0)
                    .equals(scrape().value("taskq_paused", "kind=\"queue\"", "name=\"emails\"")));
    taskq.operations().resume(io.taskq.operations.PauseTarget.actor("boom"));
  }

  @Test
  @Tag("O1")
  @Tag("O2")
  @Tag("T2")
  void ready_isDegradedWithTheReducedTierReason_whenRealAbortsLatchTheBreaker() throws Exception {
    start(config().eventWriterStatementTimeout(Duration.ofMillis(200)));
    await().atMost(PATIENCE).until(taskq::isLeader);
    expiredJobsOf("w-locked", 3);
    lockWorker("w-locked");

    await()
        .atMost(PATIENCE)
        .until(
            () ->
                ready().contains("sweep " + S1 + " is on the reduced tier: batch size 25 of 100"));

    String body = ready();
    assertThat(body).contains("\"status\":\"ready\"", "\"degraded\":true");
    Scrape s = scrape();
    String sweep = "sweep_name=\"" + S1 + "\"";
    assertThat(s.value("taskq_maintenance_leader_sweep_timeouts_total", sweep))
        .isGreaterThanOrEqualTo(3.0);
    assertThat(s.value("taskq_maintenance_leader_sweep_batch_size", sweep)).isEqualTo(25.0);
    assertThat(s.value("taskq_maintenance_leader_sweep_batch_size_configured", sweep))
        .isEqualTo(100.0);
    assertThat(
            s.value(
                "taskq_maintenance_leader_sweep_duration_seconds_count",
                sweep,
                "outcome=\"aborted\""))
        .isGreaterThanOrEqualTo(3.0);
  }

  @Test
  @Tag("O3")
  void ready_isDegradedWithTheStaleReason_whenASweepStopsSucceeding() throws Exception {
    // A breaker that never latches: the only symptom left is the stale last success.
    start(
        config()
            .eventWriterStatementTimeout(Duration.ofMillis(200))
            .sweepBreakerFailureThreshold(1000));
    await().atMost(PATIENCE).until(taskq::isLeader);
    await().atMost(PATIENCE).until(() -> ready().contains("\"" + S1 + "\":{\"last_success\":\""));
    assertThat(ready()).contains("\"degraded\":false");
    expiredJobsOf("w-locked", 3);
    lockWorker("w-locked");

    await().atMost(PATIENCE).until(() -> ready().contains("sweep " + S1 + " last succeeded "));

    String body = ready();
    assertThat(body)
        .contains("\"degraded\":true", "more than 3 periods of 0.300s")
        .doesNotContain("reduced tier");
  }

  @Test
  @Tag("O6")
  void ready_onAFreshProcessThatNeverLed_isNotDegradedAndSaysNoSweepHasCompletedYet()
      throws Exception {
    takeLeaderLock().join();
    start(config());

    await().atMost(PATIENCE).until(() -> get("/ready").statusCode() == 200);
    assertThat(ready())
        .contains(
            "\"status\":\"ready\"",
            "\"maintenance\":{\"degraded\":false,\"reasons\":[\"no sweep has completed yet\"],"
                + "\"sweeps\":{}}");
    assertThat(taskq.isLeader()).isFalse();
    assertThat(scrape().value("taskq_maintenance_leader_is_leader")).isZero();
  }

  @Test
  @Tag("O6")
  void demotion_clearsTheSweepHealthStampsAndThePerSweepGauges() throws Exception {
    start(config());
    await().atMost(PATIENCE).until(taskq::isLeader);
    await().atMost(PATIENCE).until(() -> ready().contains("\"" + S1 + "\":{\"last_success\":\""));
    assertThat(scrape().value("taskq_maintenance_leader_sweep_last_success_seconds")).isNotNull();

    // The test waits for the lock, then ends the leader's session: the lock passes to the test,
    // and the TaskQ finds itself demoted at its next check.
    int pid = leaderPid();
    CompletableFuture<Void> taken = takeLeaderLock();
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
      ps.setInt(1, pid);
      ps.executeQuery().close();
    }
    taken.join();

    await().atMost(PATIENCE).until(() -> !taskq.isLeader());
    await()
        .atMost(PATIENCE)
        .until(
            () -> ready().contains("\"reasons\":[\"no sweep has completed yet\"],\"sweeps\":{}"));
    Scrape s = scrape();
    assertThat(s.value("taskq_maintenance_leader_is_leader")).isZero();
    assertThat(s.value("taskq_maintenance_leader_leader_changes_total")).isEqualTo(2.0);
    assertThat(s.names())
        .doesNotContain(
            "taskq_maintenance_leader_sweep_last_success_seconds",
            "taskq_maintenance_leader_sweep_batch_size",
            "taskq_maintenance_leader_sweep_batch_size_configured");
  }

  @Test
  @Tag("D15")
  void theEndpoint_servesOnlyTheConfiguredAddress_andPrintsNoSecret() throws Exception {
    AtomicBoolean down = new AtomicBoolean();
    String url = "jdbc:postgresql://db.internal:5432/app?user=app&password=" + SECRET;
    DataSource breakable = new Breakable(services.dataSource(), down, url);
    start(config().databaseUrl(url), breakable);

    assertThat(observability.endpointAddress().orElseThrow().getAddress().getHostAddress())
        .isEqualTo("127.0.0.1");
    assertThat(observability.endpointAddress().orElseThrow().getPort())
        .isEqualTo(taskq.config().httpPort());
    await().atMost(PATIENCE).until(() -> get("/ready").statusCode() == 200);
    for (String path : List.of("/live", "/ready", "/metrics")) {
      assertThat(get(path).body()).doesNotContain(SECRET, "password");
    }

    down.set(true);

    HttpResponse<String> reply = get("/ready");
    assertThat(reply.statusCode()).isEqualTo(503);
    assertThat(reply.body())
        .contains("\"database\":\"unreachable\"")
        .doesNotContain(SECRET, "password", "db.internal");
    assertThat(get("/metrics").body()).doesNotContain(SECRET);
  }

  @Test
  @Tag("D15")
  void theEndpoint_isOffByDefault() throws Exception {
    start(config().httpPort(0));
    assertThat(observability.endpointAddress()).isEmpty();
    assertThat(observability.routes()).containsOnlyKeys("/live", "/ready", "/metrics");
    assertThat(observability.routes().get("/ready").respond().body()).contains("\"maintenance\":{");
  }

  /** Delegates to a real DataSource until {@code down}, then fails as a driver would. */
  private static final class Breakable extends ForwardingDataSource {
    private final AtomicBoolean down;
    private final String url;

    Breakable(DataSource real, AtomicBoolean down, String url) {
      super(real);
      this.down = down;
      this.url = url;
    }

    @Override
    public Connection getConnection() throws SQLException {
      if (down.get()) {
        throw new SQLException("Connection to " + url + " refused.", "08001");
      }
      return target.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }
  }
}
