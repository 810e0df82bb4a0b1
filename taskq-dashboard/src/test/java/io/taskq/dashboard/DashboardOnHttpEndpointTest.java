package io.taskq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException;
import io.taskq.operations.Pause;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The dashboard served by taskq-metrics' HTTP endpoint beside {@code /live}, {@code /ready} and
 * {@code /metrics} ({@code TASKQ_HTTP_DASHBOARD=true}), over real HTTP: off by default, on the
 * endpoint's loopback address, and with the same security as on its own port (W3, W4, W5).
 */
@TaskQTest
class DashboardOnHttpEndpointTest {
  private DashboardFixture fixture;

  @AfterEach
  void tearDown() throws Exception {
    if (fixture != null) {
      fixture.close();
    }
  }

  private Http start(TestServices services, UnaryOperator<TaskQConfig.Builder> settings)
      throws Exception {
    fixture =
        DashboardFixture.onHttpEndpoint(
            services, settings, taskq -> taskq.register(DashboardFixture.ok("ok")));
    return new Http(fixture);
  }

  private HttpResponse<String> probe(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(fixture.root.resolve(path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private long scheduledJob() {
    return fixture
        .taskq
        .jobs()
        .enqueue(JobRequest.builder("later").delay(Duration.ofHours(1)).build());
  }

  private JobStatus status(long id) {
    return fixture.taskq.jobs().find(id).orElseThrow().status();
  }

  @Test
  @Tag("W3")
  @Tag("W5")
  void theDashboard_isServedBesideReadyAndMetrics_onLoopback_withItsHeadersAndSignIn(
      TestServices services) throws Exception {
    Http http = start(services, b -> b.dashboardToken(DashboardFixture.TOKEN));

    assertThat(fixture.root.getHost()).as("TASKQ_HTTP_BIND's default").isEqualTo("127.0.0.1");
    assertThat(fixture.root.getPort()).isEqualTo(fixture.taskq.config().httpPort());
    assertThat(fixture.root.getPath()).isEqualTo("/taskq/");
    assertThat(probe("/live").statusCode()).isEqualTo(200);
    assertThat(probe("/ready").body()).contains("database");
    HttpResponse<String> metrics = probe("/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).contains("taskq_");

    HttpResponse<String> overview = http.get("/");
    assertThat(overview.statusCode()).as("every page needs sign-in").isEqualTo(303);
    assertThat(overview.headers().firstValue("Location")).contains("/taskq/login");
    assertThat(overview.headers().firstValue("Set-Cookie"))
        .hasValueSatisfying(c -> assertThat(c).contains("HttpOnly").contains("SameSite=Strict"));
    for (String route : new String[] {"/login", "/", "/assets/dashboard.js", "/nowhere"}) {
      HttpResponse<String> r = http.get(route);
      assertThat(r.headers().firstValue("Content-Security-Policy"))
          .as(route)
          .hasValueSatisfying(
              csp ->
                  assertThat(csp)
                      .contains("script-src 'self'")
                      .contains("frame-ancestors 'none'")
                      .doesNotContain("unsafe-inline"));
      assertThat(r.headers().firstValue("X-Frame-Options")).as(route).contains("DENY");
      assertThat(r.headers().firstValue("X-Content-Type-Options")).as(route).contains("nosniff");
    }

    http.signIn();
    HttpResponse<String> signedIn = http.get("/");
    assertThat(signedIn.statusCode()).isEqualTo(200);
    assertThat(signedIn.body()).contains("Overview").doesNotContain(DashboardFixture.TOKEN);
  }

  @Test
  @Tag("W3")
  @Tag("W4")
  void aStateChange_withoutSignIn_csrfToken_orSameOrigin_isRefused_andARealOneActs(
      TestServices services) throws Exception {
    Http http = start(services, b -> b.dashboardToken(DashboardFixture.TOKEN));
    long id = scheduledJob();
    String id1 = Long.toString(id);

    HttpResponse<String> anonymous =
        http.post("/jobs/cancel", Map.of("id", id1, "csrf", http.csrf("/login")));
    assertThat(anonymous.statusCode()).as("no sign-in").isEqualTo(401);

    http.signIn();
    HttpResponse<String> noToken = http.post("/jobs/cancel", Map.of("id", id1));
    assertThat(noToken.statusCode()).as("no CSRF token").isEqualTo(403);
    assertThat(noToken.body()).contains("CSRF token");
    HttpResponse<String> forged = http.post("/jobs/cancel", Map.of("id", id1, "csrf", "forged"));
    assertThat(forged.statusCode()).as("a wrong CSRF token").isEqualTo(403);
    String csrf = http.csrf("/");
    HttpResponse<String> evil =
        http.post(
            "/jobs/cancel", Map.of("id", id1, "csrf", csrf), Map.of("Origin", "http://evil.test"));
    assertThat(evil.statusCode()).as("another origin").isEqualTo(403);
    Http stranger = new Http(fixture);
    HttpResponse<String> pauseAnonymously =
        stranger.post("/queues/pause", Map.of("queue", "default", "csrf", stranger.csrf("/login")));
    assertThat(pauseAnonymously.statusCode()).isEqualTo(401);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
    assertThat(fixture.taskq.operations().paused()).isEmpty();

    HttpResponse<String> real = http.post("/jobs/cancel", Map.of("id", id1, "csrf", csrf));
    assertThat(real.statusCode()).isEqualTo(303);
    assertThat(status(id)).isEqualTo(JobStatus.CANCELLED);
    HttpResponse<String> pause =
        http.post("/queues/pause", Map.of("queue", "default", "csrf", csrf));
    assertThat(pause.statusCode()).isEqualTo(303);
    assertThat(fixture.taskq.operations().paused())
        .singleElement()
        .satisfies(p -> assertThat(p.target().name()).isEqualTo("default"))
        .extracting(Pause::pausedBy)
        .asString()
        .contains("dashboard:");
  }

  @Test
  @Tag("W2")
  @Tag("A4")
  void resume_namesTheSignedInUser_asPauseDoes(TestServices services) throws Exception {
    Http http = start(services, b -> b.dashboardToken(DashboardFixture.TOKEN));
    http.signIn();
    String csrf = http.csrf("/");
    assertThat(http.post("/queues/pause", Map.of("queue", "ledger", "csrf", csrf)).statusCode())
        .isEqualTo(303);
    String pausedBy = fixture.taskq.operations().paused().get(0).pausedBy();
    assertThat(pausedBy).startsWith("dashboard:");

    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream original = System.err;
    HttpResponse<String> resume;
    try {
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      resume = http.post("/queues/resume", Map.of("queue", "ledger", "csrf", csrf));
    } finally {
      System.setErr(original);
    }

    assertThat(resume.statusCode()).isEqualTo(303);
    assertThat(fixture.taskq.operations().paused()).isEmpty();
    assertThat(log.toString(StandardCharsets.UTF_8))
        .as("the operations log names the same user for the resume as the pause stored")
        .contains("queue 'ledger' in \"" + services.schema() + "\" resumed by " + pausedBy)
        .contains("(paused by " + pausedBy + " at ");
  }

  @Test
  @Tag("W3")
  void readOnlyMode_onTheEndpoint_showsNoAction_andRefusesEveryChange(TestServices services)
      throws Exception {
    Http http = start(services, b -> b.dashboardReadOnly(true));
    long id = scheduledJob();

    HttpResponse<String> page = http.get("/jobs/" + id);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("read-only").doesNotContain("/jobs/cancel");
    assertThat(http.get("/queues").body()).doesNotContain("/queues/pause");
    HttpResponse<String> cancel =
        http.post("/jobs/cancel", Map.of("id", Long.toString(id), "csrf", http.csrf("/")));
    HttpResponse<String> bulk =
        http.post(
            "/jobs/bulk", Map.of("action", "cancel", "actor", "later", "csrf", http.csrf("/")));
    assertThat(cancel.statusCode()).isEqualTo(403);
    assertThat(bulk.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("W3")
  void theDashboard_isOffByDefault_onTheEndpoint(TestServices services) throws Exception {
    Http http = start(services, b -> b.httpDashboard(false).dashboardToken(DashboardFixture.TOKEN));

    assertThat(http.get("/").statusCode()).isEqualTo(404);
    assertThat(http.get("/login").statusCode()).isEqualTo(404);
    assertThat(probe("/metrics").statusCode()).isEqualTo(200);
  }

  @Test
  @Tag("W3")
  void unusableSettings_areRefusedNamingThem(TestServices services) throws Exception {
    TaskQ noPort =
        TaskQ.builder(services.dataSource())
            .config(
                TaskQConfig.builder()
                    .schemaName(services.schema())
                    .httpDashboard(true)
                    .dashboardToken(DashboardFixture.TOKEN)
                    .build())
            .build();
    try (noPort) {
      noPort.register(DashboardFixture.ok("ok"));
      assertThatThrownBy(noPort::start)
          .isInstanceOf(TaskQConfigException.class)
          .hasMessageContaining("TASKQ_HTTP_DASHBOARD=true")
          .hasMessageContaining("TASKQ_HTTP_PORT is 0");
    }
    assertThatThrownBy(
            () -> start(services, b -> b.dashboardPath("/metrics").dashboardReadOnly(true)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TASKQ_DASHBOARD_PATH=/metrics");
    assertThatThrownBy(() -> start(services, b -> b))
        .as("actions without credentials")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TASKQ_DASHBOARD_TOKEN");
  }
}
