package io.taskq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's security model over plain HTTP (W3, W4, W5): every state change is refused
 * without sign-in, without the session's CSRF token, from another origin, or in read-only mode, and
 * a refused change leaves the job as it was.
 */
@TaskQTest
class DashboardSecurityTest {
  private DashboardFixture fixture;

  @AfterEach
  void tearDown() throws Exception {
    if (fixture != null) {
      fixture.close();
    }
  }

  private Http start(TestServices services, DashboardSettings settings) throws Exception {
    fixture =
        DashboardFixture.start(
            services, settings, taskq -> taskq.register(DashboardFixture.ok("ok")));
    return new Http(fixture);
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
  @Tag("W5")
  void everyAnswer_carriesTheSecurityHeaders(TestServices services) throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());

    for (String route : new String[] {"/login", "/", "/assets/dashboard.css", "/nowhere"}) {
      HttpResponse<String> r = http.get(route);
      Map<String, java.util.List<String>> h = r.headers().map();
      assertThat(r.headers().firstValue("Content-Security-Policy"))
          .as(route)
          .hasValueSatisfying(
              csp ->
                  assertThat(csp)
                      .contains("script-src 'self'")
                      .contains("frame-ancestors 'none'")
                      .doesNotContain("unsafe-inline")
                      .doesNotContain("unsafe-eval"));
      assertThat(r.headers().firstValue("X-Frame-Options")).as(route).contains("DENY");
      assertThat(r.headers().firstValue("X-Content-Type-Options")).as(route).contains("nosniff");
      assertThat(h).as(route).containsKey("cache-control");
    }
  }

  @Test
  @Tag("W3")
  void pages_needSignIn_andTheSessionCookieIsHttpOnlyAndSameSiteStrict(TestServices services)
      throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());

    HttpResponse<String> overview = http.get("/");

    assertThat(overview.statusCode()).isEqualTo(303);
    assertThat(overview.headers().firstValue("Location")).contains("/taskq/login");
    assertThat(overview.headers().firstValue("Set-Cookie"))
        .hasValueSatisfying(
            c ->
                assertThat(c)
                    .contains("HttpOnly")
                    .contains("SameSite=Strict")
                    .contains("Path=/taskq"));
    assertThat(overview.body()).doesNotContain("Overview");
  }

  @Test
  @Tag("W3")
  void aWrongToken_isRefused_andTheRightOneSignsInOnANewSession(TestServices services)
      throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());
    String csrf = http.csrf("/login");

    HttpResponse<String> wrong =
        http.post("/login", Map.of("csrf", csrf, "token", "correct-horse-battery-stapl"));
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).contains("not valid").doesNotContain(DashboardFixture.TOKEN);

    HttpResponse<String> right =
        http.post("/login", Map.of("csrf", csrf, "token", DashboardFixture.TOKEN));
    assertThat(right.statusCode()).isEqualTo(303);
    assertThat(right.headers().firstValue("Set-Cookie")).isPresent();
    assertThat(http.get("/").statusCode()).isEqualTo(200);
    assertThat(http.csrf("/")).as("a new session has a new token").isNotEqualTo(csrf);
  }

  @Test
  @Tag("W4")
  @Tag("W2")
  void aStateChangeWithoutTheCsrfToken_isRefused_andChangesNothing(TestServices services)
      throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());
    http.signIn();
    long id = scheduledJob();

    HttpResponse<String> none = http.post("/jobs/cancel", Map.of("id", Long.toString(id)));
    HttpResponse<String> wrong =
        http.post("/jobs/cancel", Map.of("id", Long.toString(id), "csrf", "forged"));

    assertThat(none.statusCode()).isEqualTo(403);
    assertThat(none.body()).contains("CSRF token");
    assertThat(wrong.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
    HttpResponse<String> discard =
        http.post("/jobs/discard", Map.of("id", Long.toString(id), "reason", "forged"));
    assertThat(discard.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);

    HttpResponse<String> real =
        http.post("/jobs/cancel", Map.of("id", Long.toString(id), "csrf", http.csrf("/")));
    assertThat(real.statusCode()).isEqualTo(303);
    assertThat(status(id)).isEqualTo(JobStatus.CANCELLED);
    assertThat(fixture.taskq.operations().detail(id).orElseThrow().events())
        .as("the cancelled event names the signed-in operator (W2)")
        .anySatisfy(e -> assertThat(e.note()).isEqualTo("cancelled by dashboard:token"));
  }

  @Test
  @Tag("W2")
  @Tag("W3")
  @Tag("W4")
  void bulkCancel_needsTheCsrfTokenAndAnActingUser_thenCancelsWhatTheFilterMatches(
      TestServices services) throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());
    http.signIn();
    java.util.List<Long> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 25; i++) {
      ids.add(
          fixture
              .taskq
              .jobs()
              .enqueue(
                  JobRequest.builder("later").queue("bulk").delay(Duration.ofHours(1)).build()));
    }
    long other = scheduledJob();
    Map<String, String> form = Map.of("action", "cancel", "queue", "bulk");

    HttpResponse<String> confirm = http.get("/jobs/bulk?action=cancel&queue=bulk");
    assertThat(confirm.statusCode()).isEqualTo(200);
    assertThat(confirm.body()).contains("id=\"bulk-count\">25<").contains("queue bulk");

    HttpResponse<String> noToken = http.post("/jobs/bulk", form);
    assertThat(noToken.statusCode()).isEqualTo(403);
    HttpResponse<String> evil =
        http.post(
            "/jobs/bulk",
            Map.of("action", "cancel", "queue", "bulk", "csrf", http.csrf("/")),
            Map.of("Origin", "http://evil.test"));
    assertThat(evil.statusCode()).isEqualTo(403);
    assertThat(ids).allMatch(id -> status(id) == JobStatus.SCHEDULED);

    HttpResponse<String> started =
        http.post(
            "/jobs/bulk", Map.of("action", "cancel", "queue", "bulk", "csrf", http.csrf("/")));
    assertThat(started.statusCode()).isEqualTo(303);
    String run = started.headers().firstValue("Location").orElseThrow();
    assertThat(run).matches(".*/jobs/bulk/[A-Za-z0-9_-]{43}");
    String route = run.substring(run.indexOf("/jobs/bulk/"));
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> assertThat(http.get(route).body()).contains("id=\"bulk-state\">done<"));
    assertThat(http.get(route).body()).contains("25 cancelled");
    assertThat(ids).allMatch(id -> status(id) == JobStatus.CANCELLED);
    assertThat(fixture.taskq.operations().detail(ids.get(0)).orElseThrow().events())
        .as("each job's event names the signed-in operator")
        .anySatisfy(
            e -> assertThat(e.note()).isEqualTo("cancelled by dashboard:token (bulk cancel)"));
    assertThat(status(other)).isEqualTo(JobStatus.SCHEDULED);
    assertThat(http.get("/jobs/bulk/not-a-run").statusCode()).isEqualTo(404);
  }

  @Test
  @Tag("W3")
  void bulkActions_areRefusedInReadOnlyMode(TestServices services) throws Exception {
    Http http =
        start(
            services,
            DashboardSettings.builder().token(DashboardFixture.TOKEN).readOnly(true).build());
    http.signIn();
    long id = scheduledJob();

    assertThat(http.get("/jobs").body()).doesNotContain("/jobs/bulk");
    assertThat(http.get("/jobs/bulk?action=cancel&actor=later").statusCode()).isEqualTo(403);
    HttpResponse<String> r =
        http.post(
            "/jobs/bulk", Map.of("action", "cancel", "actor", "later", "csrf", http.csrf("/")));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("W4")
  void aStateChangeFromAnotherOrigin_isRefused_evenWithTheToken(TestServices services)
      throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());
    http.signIn();
    long id = scheduledJob();
    String csrf = http.csrf("/");
    Map<String, String> form = Map.of("id", Long.toString(id), "csrf", csrf);

    HttpResponse<String> evil =
        http.post("/jobs/cancel", form, Map.of("Origin", "http://evil.test"));
    HttpResponse<String> crossSite =
        http.post(
            "/jobs/cancel", form, Map.of("Origin", http.origin(), "Sec-Fetch-Site", "cross-site"));
    HttpResponse<String> noOrigin = http.post("/jobs/cancel", form, Map.of());

    assertThat(evil.statusCode()).isEqualTo(403);
    assertThat(crossSite.statusCode()).isEqualTo(403);
    assertThat(noOrigin.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("W3")
  void aStateChangeWithoutSignIn_isRefused_andChangesNothing(TestServices services)
      throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());
    long id = scheduledJob();
    String csrf = http.csrf("/login");

    HttpResponse<String> r =
        http.post("/jobs/cancel", Map.of("id", Long.toString(id), "csrf", csrf));

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("A5")
  @Tag("W1")
  void theJobPage_showsHowManySnoozesTheJobUsed(TestServices services) throws Exception {
    Http http = start(services, DashboardFixture.tokenSettings());
    http.signIn();
    long id = scheduledJob();
    try (java.sql.Connection c = services.dataSource().getConnection();
        java.sql.PreparedStatement ps =
            c.prepareStatement(
                "UPDATE "
                    + fixture.taskq.schema().quoted()
                    + ".jobs SET snoozes = 3 WHERE id = ?")) {
      ps.setLong(1, id);
      assertThat(ps.executeUpdate()).isOne();
    }

    assertThat(http.get("/jobs/" + id).body()).contains("<dd id=\"job-snoozes\">3</dd>");
  }

  @Test
  @Tag("W3")
  void readOnlyMode_refusesStateChanges_andShowsNoActionForm(TestServices services)
      throws Exception {
    Http http =
        start(
            services,
            DashboardSettings.builder().token(DashboardFixture.TOKEN).readOnly(true).build());
    http.signIn();
    long id = scheduledJob();

    HttpResponse<String> page = http.get("/jobs/" + id);
    HttpResponse<String> r =
        http.post("/jobs/cancel", Map.of("id", Long.toString(id), "csrf", http.csrf("/")));

    assertThat(page.body()).contains("read-only").doesNotContain("/jobs/cancel");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("W3")
  void withoutCredentials_theDashboardRunsOnlyReadOnly(TestServices services) throws Exception {
    assertThatThrownBy(() -> DashboardSettings.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TASKQ_DASHBOARD_TOKEN")
        .hasMessageContaining("TASKQ_DASHBOARD_READ_ONLY=true");

    Http http = start(services, DashboardSettings.builder().readOnly(true).build());
    long id = scheduledJob();

    assertThat(http.get("/").statusCode()).isEqualTo(200);
    HttpResponse<String> r =
        http.post("/jobs/cancel", Map.of("id", Long.toString(id), "csrf", http.csrf("/")));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(status(id)).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("W3")
  void theSettings_neverShowASecret() {
    DashboardSettings settings =
        DashboardSettings.builder().token(DashboardFixture.TOKEN).user("ops", "pa55word!").build();

    assertThat(settings.toString())
        .doesNotContain(DashboardFixture.TOKEN)
        .doesNotContain("pa55word!")
        .contains("token=set");
  }
}
