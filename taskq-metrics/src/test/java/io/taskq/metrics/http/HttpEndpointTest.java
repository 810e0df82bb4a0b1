package io.taskq.metrics.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.taskq.TaskQConfig;
import io.taskq.metrics.Scrape;
import io.taskq.metrics.TaskQMetrics;
import io.taskq.spi.MaintenanceHealth;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("O7")
class HttpEndpointTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final InstantSource clock = now::get;
  private final MaintenanceHealth health = new MaintenanceHealth(Duration.ofSeconds(30), clock);
  private final AtomicReference<ProcessState> state = new AtomicReference<>(ProcessState.RUNNING);
  private final AtomicReference<DatabaseCheck> database = new AtomicReference<>(DatabaseCheck.NONE);
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final TaskQMetrics metrics = new TaskQMetrics();
  private final HttpClient client = HttpClient.newHttpClient();
  private final HttpEndpoint endpoint;

  HttpEndpointTest() {
    metrics.bindTo(registry);
    ReadinessHandler ready = new ReadinessHandler(health, state::get, () -> database.get().ping());
    endpoint =
        HttpEndpoint.start(
            "127.0.0.1",
            0,
            HttpEndpoint.standardRoutes(
                new LivenessHandler(), ready, new MetricsHandler(registry)));
  }

  @AfterEach
  void close() {
    endpoint.close();
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + endpoint.address().getPort() + path);
  }

  @Test
  void theEndpoint_bindsTheLoopbackAddressOnTheEphemeralPortItReports() {
    assertThat(endpoint.address().getAddress().isLoopbackAddress()).isTrue();
    assertThat(endpoint.address().getPort()).isPositive();
  }

  @Test
  void live_answers200WhileTheProcessRuns() throws Exception {
    state.set(ProcessState.STARTING);
    HttpResponse<String> live = get("/live");

    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(live.body()).isEqualTo("{\"status\":\"live\"}");
  }

  @Test
  void ready_onAFreshProcess_isNotDegradedAndSaysNoSweepHasCompletedYet() throws Exception {
    HttpResponse<String> ready = get("/ready");

    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.headers().firstValue("Content-Type")).contains(HttpReply.JSON);
    assertThat(ready.body())
        .isEqualTo(
            "{\"status\":\"ready\",\"state\":\"running\",\"database\":\"reachable\","
                + "\"maintenance\":{\"degraded\":false,"
                + "\"reasons\":[\"no sweep has completed yet\"],\"sweeps\":{}},\"event_feed\":null,"
                + "\"paused\":null}");
  }

  @Test
  void ready_withASweepOnTheReducedTier_isDegradedWithTheReasonButNever503() throws Exception {
    health.sweepBatchSize("reclaim_expired_locks", 25, 100);
    health.sweepSucceeded("reclaim_expired_locks", T0);

    HttpResponse<String> ready = get("/ready");

    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body())
        .contains("\"status\":\"ready\"")
        .contains("\"degraded\":true")
        .contains("sweep reclaim_expired_locks is on the reduced tier: batch size 25 of 100")
        .contains("\"batch_size\":25,\"batch_size_configured\":100");
  }

  @Test
  void ready_withAStaleLastSuccess_isDegradedWithTheReasonButNever503() throws Exception {
    health.sweepBatchSize("scheduled_to_pending", 100, 100);
    health.sweepSucceeded("scheduled_to_pending", T0);
    now.set(T0.plusSeconds(91));

    HttpResponse<String> ready = get("/ready");

    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body())
        .contains("\"degraded\":true")
        .contains("sweep scheduled_to_pending last succeeded 91s ago, more than 3 periods of 30s");
  }

  @Test
  void ready_afterDemotion_showsTheStampsCleared() throws Exception {
    health.sweepBatchSize("reclaim_expired_locks", 25, 100);
    health.leaderChanged(false);

    HttpResponse<String> ready = get("/ready");

    assertThat(ready.body())
        .contains("\"degraded\":false")
        .contains("no sweep has completed yet")
        .doesNotContain("reclaim_expired_locks");
  }

  @Test
  void ready_whileStartingOrStopping_answers503() throws Exception {
    state.set(ProcessState.STARTING);
    HttpResponse<String> starting = get("/ready");
    state.set(ProcessState.STOPPING);
    HttpResponse<String> stopping = get("/ready");

    assertThat(starting.statusCode()).isEqualTo(503);
    assertThat(starting.body())
        .startsWith("{\"status\":\"not_ready\",\"state\":\"starting\",\"database\":\"unchecked\"")
        .contains("\"maintenance\":{");
    assertThat(stopping.statusCode()).isEqualTo(503);
    assertThat(stopping.body()).contains("\"state\":\"stopping\"");
  }

  @Test
  void ready_whenTheDatabaseIsUnreachable_answers503WithoutPrintingTheDriversMessage()
      throws Exception {
    database.set(
        () -> {
          throw new SQLException("connect failed for postgresql://app:hunter2@db:5432/prod");
        });

    HttpResponse<String> ready = get("/ready");

    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body())
        .contains("\"database\":\"unreachable\"")
        .doesNotContain("hunter2")
        .doesNotContain("postgresql://");
  }

  @Test
  @Tag("O6")
  void metrics_servesThePrometheusTextOfTheBoundRegistry() throws Exception {
    metrics.leaderChanged(true);
    metrics.sweepTimeout("reclaim_expired_locks");

    HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains(MetricsHandler.CONTENT_TYPE);
    Scrape scrape = new Scrape(response.body());
    assertThat(scrape.value("taskq_maintenance_leader_is_leader")).isEqualTo(1.0);
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_timeouts_total",
                "sweep_name=\"reclaim_expired_locks\""))
        .isEqualTo(1.0);
  }

  @Test
  void onlyGetAndHeadOnExactPaths_areServed() throws Exception {
    HttpResponse<String> post =
        send(
            HttpRequest.newBuilder(uri("/ready"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    HttpResponse<String> head =
        send(
            HttpRequest.newBuilder(uri("/live"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build());

    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    assertThat(get("/ready/extra").statusCode()).isEqualTo(404);
    assertThat(get("/").statusCode()).isEqualTo(404);
  }

  @Test
  void aHandlerThatThrows_answers500WithoutItsMessage() throws Exception {
    try (HttpEndpoint broken =
        HttpEndpoint.start(
            "127.0.0.1",
            0,
            Map.of(
                "/boom",
                () -> {
                  throw new IllegalStateException("secret=hunter2");
                }))) {
      HttpResponse<String> response =
          send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + broken.address().getPort() + "/boom"))
                  .build());
      assertThat(response.statusCode()).isEqualTo(500);
      assertThat(response.body()).doesNotContain("hunter2");
    }
  }

  @Test
  void anAddressThatIsNotThisHosts_isRefusedNamingIt() {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never assigned to a real interface.
    assertThatThrownBy(() -> HttpEndpoint.start("192.0.2.1", 0, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("httpBind 192.0.2.1")
        .hasMessageContaining("not an address of this host");
  }

  @Test
  void badRoutesAndPorts_areRefusedNamingTheProblem() {
    assertThatThrownBy(() -> HttpEndpoint.start("127.0.0.1", 70_000, Map.of()))
        .hasMessageContaining("port must be in 0..65535, was 70000");
    assertThatThrownBy(
            () -> HttpEndpoint.start("127.0.0.1", 0, Map.of("ready", new LivenessHandler())))
        .hasMessageContaining("route path must start with /");
  }

  @Test
  void fromConfig_isOffByDefault() {
    Optional<HttpEndpoint> off = HttpEndpoint.fromConfig(TaskQConfig.defaults(), Map.of());

    assertThat(TaskQConfig.defaults().httpBind()).isEqualTo("127.0.0.1");
    assertThat(off).isEmpty();
  }

  @Test
  void fromConfig_bindsExactlyTheConfiguredAddressAndPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    TaskQConfig config = TaskQConfig.builder().httpPort(port).httpBind("127.0.0.1").build();

    try (HttpEndpoint configured =
        HttpEndpoint.fromConfig(config, Map.of("/live", new LivenessHandler())).orElseThrow()) {
      assertThat(configured.address().getPort()).isEqualTo(port);
      assertThat(configured.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
    }
  }
}
