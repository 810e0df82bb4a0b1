package io.taskq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.cron.Schedule;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard in a real headless Chromium (W6): its pages, its actions, hostile input shown
 * inert, a forged cross-site form refused, read-only mode without actions. Each test leaves
 * screenshots under {@code target/screenshots}.
 */
@TaskQTest
@Tag("W6")
class DashboardBrowserTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final String SCRIPT = "<script>window.__xss = 1</script>";
  private static final String IMG = "\"><img src=x onerror=\"window.__xss = 2\">";

  private static Chromium chromium;
  private DashboardFixture fixture;

  @BeforeAll
  static void openBrowser() {
    chromium = Chromium.start(1280, 900);
  }

  @AfterAll
  static void closeBrowser() {
    if (chromium != null) {
      chromium.close();
    }
  }

  @AfterEach
  void tearDown() {
    if (fixture != null) {
      fixture.close();
    }
    chromium.driver().manage().deleteAllCookies();
  }

  private ChromeDriver start(TestServices services, DashboardSettings settings) throws Exception {
    fixture =
        DashboardFixture.start(
            services, settings, taskq -> taskq.register(DashboardFixture.ok("ok")));
    return chromium.driver();
  }

  private void open(String route) {
    chromium.driver().get(fixture.uri(route).toString());
  }

  private void signIn() {
    open("/login");
    ChromeDriver d = chromium.driver();
    d.findElement(By.cssSelector("#token-form input[name=token]")).sendKeys(DashboardFixture.TOKEN);
    d.findElement(By.cssSelector("#token-form button")).click();
    await().atMost(PATIENCE).until(() -> !d.getCurrentUrl().endsWith("/login"));
  }

  /** The text of the element {@code css} selects, read in one call (a live refresh may swap it). */
  private String text(String css) {
    Object text =
        chromium
            .driver()
            .executeScript(
                "var e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
                css);
    if (text == null) {
      throw new AssertionError("no element " + css + " on " + chromium.driver().getCurrentUrl());
    }
    return (String) text;
  }

  /**
   * The jobs retried so far, from the run page's counts line ("3 batches committed · 30 retried").
   */
  private static int retriedSoFar(String counts) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) retried").matcher(counts);
    if (!m.find()) {
      throw new AssertionError("no count of retried jobs in: " + counts);
    }
    return Integer.parseInt(m.group(1));
  }

  private long scheduledJob(String actor) {
    return fixture
        .taskq
        .jobs()
        .enqueue(JobRequest.builder(actor).delay(Duration.ofHours(1)).build());
  }

  @Test
  @Tag("W1")
  void overview_showsTheLeadersSweepRows_whenThisProcessIsNotTheLeader(TestServices services)
      throws Exception {
    fixture =
        DashboardFixture.startBesideALeader(
            services,
            DashboardFixture.tokenSettings(),
            taskq -> taskq.register(DashboardFixture.ok("ok")));
    assertThat(fixture.leader).isNotNull();
    await().atMost(PATIENCE).until(fixture.leader::isLeader);
    signIn();
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              open("/");
              assertThat(text("#sweeps")).contains("scheduled_to_pending", "archive_expiry");
            });
    assertThat(fixture.taskq.isLeader()).as("the dashboard's own TaskQ").isFalse();
    assertThat(fixture.taskq.health().sweeps()).as("this process ran no sweep").isEmpty();
    assertThat(text("#leader")).startsWith("pid ").doesNotContain("this process");
    assertThat(text("#sweep-health")).isEqualTo("healthy");
    assertThat(text("#sweeps tr[data-sweep='reclaim_expired_locks']"))
        .contains("S1", "full", "current", "ago");
    assertThat(text("#sweeps tr[data-sweep='sweep_expired_results']")).contains("S5", "fixed");
    assertThat(text("#sweeps-written")).startsWith("Written by ").contains(" ago");
    chromium.screenshot("overview-not-leader");
  }

  @Test
  @Tag("W1")
  void everyPage_opensAfterSignIn_andTheOverviewRefreshesWithoutReloading(TestServices services)
      throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    fixture.taskq.schedules().put(Schedule.builder("nightly-report", "ok", "0 3 * * *").build());
    List<Long> ran = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ran.add(fixture.taskq.jobs().enqueue(JobRequest.of("ok", "{}")));
    }
    ran.add(
        fixture
            .taskq
            .jobs()
            .enqueue(
                JobRequest.builder("ok").payloadJson("{\"fail\": true}").maxAttempts(1).build()));
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () ->
                assertThat(ran)
                    .extracting(
                        id -> {
                          return fixture.taskq.jobs().find(id).orElseThrow().status();
                        })
                    .allMatch(JobStatus::isTerminal));

    signIn();
    assertThat(text("h1")).isEqualTo("Overview");
    assertThat(d.findElements(By.cssSelector("#throughput rect.ok:not([height='0'])")))
        .isNotEmpty();
    assertThat(d.findElements(By.cssSelector("#throughput rect.fail:not([height='0'])")))
        .isNotEmpty();
    long succeeded = 0;
    long failed = 0;
    for (var minute : fixture.taskq.finishedPerMinute(Duration.ofHours(1))) {
      succeeded += minute.succeeded();
      failed += minute.failed();
    }
    assertThat(succeeded).isGreaterThanOrEqualTo(3);
    assertThat(failed).isGreaterThanOrEqualTo(1);
    assertThat(text(".legend")).contains(succeeded + " succeeded").contains(failed + " failed");
    chromium.screenshot("overview");
    d.findElement(By.id("refresh")).click();
    d.findElement(By.cssSelector("#refresh option[value='2']")).click();
    d.executeScript("window.__sameDocument = true;");
    fixture.taskq.jobs().enqueue(JobRequest.builder("ok").queue("reports").build());

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#queues")).contains("reports"));
    assertThat(d.executeScript("return window.__sameDocument === true;")).isEqualTo(true);

    for (String page : List.of("queues", "actors", "schedules", "batches", "jobs")) {
      open("/" + page);
      assertThat(text("h1")).isEqualTo(Character.toUpperCase(page.charAt(0)) + page.substring(1));
      chromium.screenshot(page);
    }
    open("/schedules");
    assertThat(text("#schedules")).contains("nightly-report").contains("0 3 * * *");
  }

  @Test
  @Tag("W5")
  void aHostilePayloadLabelAndQueue_areShownAsText_andNeverRun(TestServices services)
      throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    String payload =
        "{\"note\": \"" + SCRIPT + "\", \"html\": \"" + IMG.replace("\"", "\\\"") + "\"}";
    long id =
        fixture
            .taskq
            .jobs()
            .enqueue(
                JobRequest.builder("ok")
                    .payloadJson(payload)
                    .queue("q" + IMG)
                    .labels(Map.of("owner" + SCRIPT, IMG))
                    .delay(Duration.ofHours(1))
                    .build());

    signIn();
    open("/jobs/" + id);
    chromium.screenshot("job-hostile");

    assertThat(text("#job-payload")).contains(SCRIPT).contains("<img src=x onerror=");
    assertThat(text("#job-labels")).contains("owner" + SCRIPT).contains(IMG);
    assertThat(text("#job-queue")).isEqualTo("q" + IMG);
    assertThat(d.findElements(By.cssSelector("#main img, #main script"))).isEmpty();
    assertThat(d.executeScript("return window.__xss === undefined;")).isEqualTo(true);
  }

  @Test
  @Tag("W2")
  void cancel_andScheduleDisableEnable_workFromTheirButtons(TestServices services)
      throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    long id = scheduledJob("ok");
    fixture.taskq.schedules().put(Schedule.builder("hourly", "ok", "0 * * * *").build());

    signIn();
    open("/jobs/" + id);
    d.findElement(By.id("cancel")).click();
    d.switchTo().alert().accept();

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("cancelled"));
    assertThat(text("#job-status")).isEqualTo("cancelled");
    assertThat(fixture.taskq.jobs().find(id).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    chromium.screenshot("job-cancelled");

    open("/schedules");
    d.findElement(By.xpath("//button[text()='Disable']")).click();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("disabled"));
    assertThat(fixture.taskq.schedules().find("hourly").orElseThrow().enabled()).isFalse();
    d.findElement(By.xpath("//button[text()='Enable']")).click();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("enabled"));
    assertThat(fixture.taskq.schedules().find("hourly").orElseThrow().enabled()).isTrue();
  }

  @Test
  @Tag("W2")
  @Tag("A3")
  void discard_endsAScheduledJobForGood_withTheReasonInItsEvents(TestServices services)
      throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    long id = scheduledJob("ok");

    signIn();
    open("/jobs/" + id);
    d.findElement(By.id("discard-reason")).sendKeys("duplicate <b>order</b>");
    chromium.screenshot("job-discard");
    d.findElement(By.id("discard")).click();
    d.switchTo().alert().accept();

    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("discarded"));
    assertThat(text("#job-status")).isEqualTo("failed");
    assertThat(text("#job-error")).contains("Discarded").contains("dashboard:token");
    assertThat(text("#job-events")).contains("discarded").contains("duplicate <b>order</b>");
    assertThat(d.findElements(By.id("discard"))).isEmpty();
    assertThat(d.findElements(By.id("retry"))).isNotEmpty();
    assertThat(fixture.taskq.jobs().find(id).orElseThrow().status()).isEqualTo(JobStatus.FAILED);
    chromium.screenshot("job-discarded");
  }

  @Test
  @Tag("W4")
  void aForgedFormOnAnotherSite_changesNothing(TestServices services) throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    long id = scheduledJob("ok");
    signIn();
    HttpServer evil =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    String target = fixture.uri("/jobs/cancel").toString();
    byte[] page =
        ("<!DOCTYPE html><form id=f method=post action=\""
                + target
                + "\">"
                + "<input name=id value="
                + id
                + "></form>"
                + "<script>document.getElementById('f').submit()</script>")
            .getBytes(StandardCharsets.UTF_8);
    evil.createContext(
        "/",
        exchange -> {
          exchange.getResponseHeaders().set("Content-Type", "text/html");
          exchange.sendResponseHeaders(200, page.length);
          exchange.getResponseBody().write(page);
          exchange.close();
        });
    evil.start();
    try {
      d.get("http://127.0.0.1:" + evil.getAddress().getPort() + "/");
      await().atMost(PATIENCE).until(() -> d.getCurrentUrl().startsWith(target));
      chromium.screenshot("forged-form-refused");
      assertThat(d.findElement(By.tagName("body")).getText()).contains("refused");
    } finally {
      evil.stop(0);
    }
    assertThat(fixture.taskq.jobs().find(id).orElseThrow().status()).isEqualTo(JobStatus.SCHEDULED);
  }

  @Test
  @Tag("W3")
  void readOnlyMode_showsNoAction(TestServices services) throws Exception {
    ChromeDriver d =
        start(
            services,
            DashboardSettings.builder().token(DashboardFixture.TOKEN).readOnly(true).build());
    long id = scheduledJob("ok");
    fixture.taskq.schedules().put(Schedule.builder("hourly", "ok", "0 * * * *").build());

    signIn();
    open("/jobs/" + id);
    assertThat(d.findElements(By.id("job-actions"))).isEmpty();
    assertThat(d.findElements(By.id("cancel"))).isEmpty();
    assertThat(text("#read-only")).isEqualTo("read-only");
    chromium.screenshot("job-read-only");
    open("/schedules");
    List<WebElement> buttons = d.findElements(By.cssSelector("#schedules button"));
    assertThat(buttons).isEmpty();
  }

  @Test
  @Tag("W1")
  @Tag("W2")
  void aFailedJob_isFoundByFilter_retried_andSucceeds(TestServices services) throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    DashboardFixture.FLAKY_FAILS.set(true);
    long id =
        fixture
            .taskq
            .jobs()
            .enqueue(
                JobRequest.builder("ok").payloadJson("{\"flaky\": true}").maxAttempts(1).build());
    await()
        .atMost(PATIENCE)
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.FAILED);

    signIn();
    assertThat(text("h1")).isEqualTo("Overview");
    d.findElement(By.linkText("Jobs")).click();
    await().atMost(PATIENCE).until(() -> d.getCurrentUrl().endsWith("/jobs"));
    d.findElement(By.cssSelector("#f-status option[value='failed']")).click();
    d.findElement(By.id("f-actor")).sendKeys("ok");
    d.findElement(By.id("f-search")).click();
    await().atMost(PATIENCE).until(() -> d.getCurrentUrl().contains("status=failed"));
    assertThat(d.getCurrentUrl()).contains("actor=ok");
    chromium.screenshot("jobs-failed-filter");
    d.findElement(By.linkText(Long.toString(id))).click();
    assertThat(text("#job-status")).isEqualTo("failed");
    assertThat(text("#job-attempts-table")).contains("upstream down <script>x()</script>");
    chromium.screenshot("job-failed");

    DashboardFixture.FLAKY_FAILS.set(false);
    d.findElement(By.id("retry")).click();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("retried"));
    await()
        .atMost(PATIENCE)
        .untilAsserted(() -> assertThat(text("#job-status")).isEqualTo("succeeded"));
    assertThat(text("#job-events")).contains("manually_retried").contains("dashboard:token");
    chromium.screenshot("job-retried-succeeded");
  }

  @Test
  @Tag("W1")
  @Tag("W2")
  @Tag("A3")
  void bulkRetry_byTheFilter_confirmsTheCount_showsProgress_andTheJobsSucceed(TestServices services)
      throws Exception {
    fixture =
        DashboardFixture.start(
            services,
            DashboardFixture.tokenSettings(),
            taskq -> {
              taskq.register(DashboardFixture.ok("ok"));
              taskq.register(DashboardFixture.ok("bulk"));
            });
    ChromeDriver d = chromium.driver();
    DashboardFixture.FLAKY_FAILS.set(true);
    int n = 35;
    List<Long> ids = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(
          fixture
              .taskq
              .jobs()
              .enqueue(
                  JobRequest.builder("bulk")
                      .payloadJson("{\"flaky\": true}")
                      .maxAttempts(1)
                      .build()));
    }
    long bystander =
        fixture
            .taskq
            .jobs()
            .enqueue(
                JobRequest.builder("ok").payloadJson("{\"flaky\": true}").maxAttempts(1).build());
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                fixture.taskq.jobs().find(bystander).orElseThrow().status() == JobStatus.FAILED
                    && ids.stream()
                        .allMatch(
                            id ->
                                fixture.taskq.jobs().find(id).orElseThrow().status()
                                    == JobStatus.FAILED));

    signIn();
    open("/jobs");
    d.findElement(By.cssSelector("#f-status option[value='failed']")).click();
    d.findElement(By.id("f-actor")).sendKeys("bulk");
    d.findElement(By.id("f-search")).click();
    await().atMost(PATIENCE).until(() -> d.getCurrentUrl().contains("actor=bulk"));
    assertThat(d.findElements(By.id("bulk-cancel")))
        .as("failed jobs cannot be cancelled")
        .isEmpty();
    d.findElement(By.id("bulk-retry")).click();

    await().atMost(PATIENCE).until(() -> d.getCurrentUrl().contains("/jobs/bulk?action=retry"));
    assertThat(text("#bulk-count")).isEqualTo(Integer.toString(n));
    assertThat(text("#bulk-filter")).isEqualTo("status failed, actor bulk");
    assertThat(text("#bulk-confirm")).isEqualTo("Retry " + n + " jobs");
    chromium.screenshot("jobs-bulk-retry-confirm");

    DashboardFixture.FLAKY_FAILS.set(false);
    // A slow database: each manually_retried event row takes 60 ms to write (a trigger of this
    // test's schema), so each batch of 10 commits about 0.6 s after the one before, and the run's
    // page, polling in place, must show a count between 0 and n before the end.
    String schema = "\"" + services.schema() + "\"";
    try (Connection c = services.dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "CREATE FUNCTION "
              + schema
              + ".slow_event() RETURNS trigger LANGUAGE plpgsql AS"
              + " $$BEGIN PERFORM pg_sleep(0.06); RETURN NEW; END$$");
      st.execute(
          "CREATE TRIGGER slow_event BEFORE INSERT ON "
              + schema
              + ".job_events FOR EACH ROW WHEN (NEW.kind = 'manually_retried')"
              + " EXECUTE FUNCTION "
              + schema
              + ".slow_event()");
      try {
        d.findElement(By.id("bulk-confirm")).click();
        await()
            .atMost(PATIENCE)
            .until(() -> d.getCurrentUrl().matches(".*/jobs/bulk/[A-Za-z0-9_-]+$"));
        d.executeScript("window.__sameDocument = true;");
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () -> {
                  String run = text("#bulk-run");
                  assertThat(run).contains("State: running");
                  assertThat(retriedSoFar(run)).isStrictlyBetween(0, n);
                });
        String percent = d.findElement(By.id("bulk-progress")).getAttribute("value");
        assertThat(Integer.parseInt(percent)).as("progress while it runs").isBetween(1, 99);
        chromium.screenshot("jobs-bulk-retry-progress");
        await()
            .atMost(PATIENCE)
            .untilAsserted(() -> assertThat(text("#bulk-state")).isEqualTo("done"));
      } finally {
        st.execute("DROP TRIGGER slow_event ON " + schema + ".job_events");
        st.execute("DROP FUNCTION " + schema + ".slow_event()");
      }
    }
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#bulk-state")).isEqualTo("done"));
    assertThat(d.executeScript("return window.__sameDocument === true;"))
        .as("the progress page went from running to done in place, without a reload")
        .isEqualTo(true);
    int batches =
        (n + DashboardFixture.EVENT_WRITER_BATCH_SIZE - 1)
            / DashboardFixture.EVENT_WRITER_BATCH_SIZE;
    assertThat(text("#bulk-counts")).contains(n + " retried").contains(batches + " batches");
    assertThat(d.findElement(By.id("bulk-progress")).getAttribute("value")).isEqualTo("100");
    chromium.screenshot("jobs-bulk-retry-done");

    await()
        .atMost(PATIENCE)
        .until(
            () ->
                ids.stream()
                    .allMatch(
                        id ->
                            fixture.taskq.jobs().find(id).orElseThrow().status()
                                == JobStatus.SUCCEEDED));
    assertThat(fixture.taskq.jobs().find(bystander).orElseThrow().status())
        .as("a job outside the filter")
        .isEqualTo(JobStatus.FAILED);
    open("/jobs/" + ids.get(0));
    assertThat(text("#job-events"))
        .contains("manually_retried")
        .as("the event names who retried it in bulk")
        .contains("retried by dashboard:token (bulk retry)");
  }

  @Test
  @Tag("W2")
  @Tag("W3")
  void onTheMetricsEndpoint_theDashboardSignsIn_andAQueuePausedFromItStopsClaiming(
      TestServices services) throws Exception {
    fixture =
        DashboardFixture.onHttpEndpoint(
            services,
            knobs -> knobs.dashboardToken(DashboardFixture.TOKEN),
            taskq -> taskq.register(DashboardFixture.ok("ok")));
    ChromeDriver d = chromium.driver();
    d.get(fixture.root.resolve("/ready").toString());
    assertThat(d.findElement(By.tagName("body")).getText()).contains("\"database\"");
    open("/");
    assertThat(d.getCurrentUrl()).as("sign-in first").endsWith("/taskq/login");
    Object anonymous =
        d.executeAsyncScript(
            "var done = arguments[arguments.length - 1];"
                + "var body = new URLSearchParams({queue: 'default',"
                + " csrf: document.querySelector('input[name=csrf]').value});"
                + "fetch(arguments[0], {method: 'POST', body: body})"
                + ".then(function (r) { done(r.status); }, function (e) { done(String(e)); });",
            fixture.uri("/queues/pause").toString());
    assertThat(anonymous).as("a state change without sign-in").isEqualTo(401L);
    assertThat(fixture.taskq.operations().paused()).isEmpty();

    signIn();
    assertThat(text("h1")).isEqualTo("Overview");
    assertThat(d.getCurrentUrl()).startsWith(fixture.root.toString());
    chromium.screenshot("http-endpoint-overview");
    open("/queues");
    d.findElement(By.xpath("//tr[td/a[text()='default']]//button[text()='Pause']")).click();
    d.switchTo().alert().accept();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("paused"));
    chromium.screenshot("http-endpoint-queues-paused");
    long id = fixture.taskq.jobs().enqueue(JobRequest.of("ok", "{}"));
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.PENDING);
    d.findElement(By.xpath("//tr[td/a[text()='default']]//button[text()='Resume']")).click();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("resumed"));
    await()
        .atMost(PATIENCE)
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.SUCCEEDED);
  }

  @Test
  @Tag("W1")
  @Tag("W2")
  @Tag("A4")
  void theActorsPage_showsEachActorsWork_andPausingAnActorStopsItsClaims(TestServices services)
      throws Exception {
    fixture =
        DashboardFixture.start(
            services,
            DashboardFixture.tokenSettings(),
            taskq -> {
              taskq.register(DashboardFixture.ok("ok"));
              taskq.register(DashboardFixture.ok("crew"));
            });
    ChromeDriver d = chromium.driver();
    long failed =
        fixture
            .taskq
            .jobs()
            .enqueue(
                JobRequest.builder("crew").payloadJson("{\"fail\": true}").maxAttempts(1).build());
    await()
        .atMost(PATIENCE)
        .until(() -> fixture.taskq.jobs().find(failed).orElseThrow().status() == JobStatus.FAILED);
    scheduledJob("crew");
    fixture.taskq.jobs().enqueue(JobRequest.builder("unregistered" + SCRIPT).build());

    signIn();
    open("/actors");
    String ok = "//tr[td/a[text()='crew']]";
    assertThat(d.findElement(By.xpath(ok + "/td[2]")).getText()).isEqualTo("default");
    assertThat(d.findElement(By.xpath(ok + "/td[3]")).getText()).isEqualTo("active");
    assertThat(d.findElement(By.xpath(ok + "/td[6]")).getText()).isEqualTo("1");
    assertThat(d.findElement(By.xpath(ok + "/td[7]")).getText()).isEqualTo("1");
    assertThat(text("#actors")).contains("unregistered" + SCRIPT).contains("(not registered)");
    assertThat(d.executeScript("return window.__xss === undefined;")).isEqualTo(true);
    chromium.screenshot("actors");

    d.findElement(By.xpath(ok + "//button[text()='Pause']")).click();
    d.switchTo().alert().accept();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("paused"));
    assertThat(d.findElement(By.xpath(ok + "/td[3]")).getText()).isEqualTo("paused");
    chromium.screenshot("actors-paused");
    long id = fixture.taskq.jobs().enqueue(JobRequest.of("crew", "{}"));
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.PENDING);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              open("/actors");
              assertThat(d.findElement(By.xpath(ok + "/td[5]")).getText()).isEqualTo("1");
            });

    d.findElement(By.xpath(ok + "//button[text()='Resume']")).click();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("resumed"));
    await()
        .atMost(PATIENCE)
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.SUCCEEDED);
  }

  @Test
  @Tag("W2")
  void pausingAQueue_stopsItsClaims_untilItIsResumed(TestServices services) throws Exception {
    ChromeDriver d = start(services, DashboardFixture.tokenSettings());
    signIn();
    open("/queues");
    WebElement pause =
        d.findElement(By.xpath("//tr[td/a[text()='default']]//button[text()='Pause']"));
    pause.click();
    d.switchTo().alert().accept();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("paused"));
    chromium.screenshot("queues-paused");

    long id = fixture.taskq.jobs().enqueue(JobRequest.of("ok", "{}"));
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.PENDING);

    d.findElement(By.xpath("//tr[td/a[text()='default']]//button[text()='Resume']")).click();
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(text("#flash")).contains("resumed"));
    await()
        .atMost(PATIENCE)
        .until(() -> fixture.taskq.jobs().find(id).orElseThrow().status() == JobStatus.SUCCEEDED);
  }
}
