package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.JobInfo;
import io.taskq.JobRequest;
import io.taskq.JobStatus;
import io.taskq.TaskQConfigException;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Boot application (embedded Tomcat on a free port, Actuator, Prometheus, Hikari) on the
 * real PostgreSQL, started and closed by each test.
 */
@TaskQTest
class TaskQBootApplicationTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void ordersTable(TestServices services) throws Exception {
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE " + services.schema() + ".orders (id bigserial PRIMARY KEY, item text)");
    }
  }

  private static ConfigurableApplicationContext start(TestServices services, String... extra) {
    List<String> args = new ArrayList<>();
    args.add("--spring.datasource.url=" + services.jdbcUrl());
    args.add("--spring.datasource.hikari.maximum-pool-size=8");
    args.add("--server.port=0");
    args.add("--taskq.schema-name=" + services.schema());
    args.add("--taskq.poll-interval=100ms");
    args.add("--management.endpoints.web.exposure.include=health,prometheus");
    args.add("--management.endpoint.health.show-details=always");
    args.add("--spring.main.banner-mode=off");
    args.addAll(List.of(extra));
    SpringApplication app = new SpringApplicationBuilder(BootApp.class).build();
    return app.run(args.toArray(String[]::new));
  }

  @Test
  @Tag("SB4")
  void aJobEnqueuedInATransactionCommitsWithTheBusinessWriteAndRuns(TestServices services) {
    BootApp.slowJobs = new CountDownLatch(0);
    try (ConfigurableApplicationContext app = start(services)) {
      BootApp.Orders orders = app.getBean(BootApp.Orders.class);
      long id = orders.place("book", false);
      assertThat(orders.count("book")).isEqualTo(1);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> BootApp.MAILED.contains("{\"item\": \"book\"}"));
      assertThat(app.getBean(TaskQJobs.class).client().find(id))
          .map(JobInfo::status)
          .hasValue(JobStatus.SUCCEEDED);
    }
  }

  @Test
  @Tag("SB4")
  void aRolledBackTransactionLeavesNeitherTheRowNorTheJob(TestServices services) {
    try (ConfigurableApplicationContext app = start(services)) {
      BootApp.Orders orders = app.getBean(BootApp.Orders.class);
      assertThatThrownBy(() -> orders.place("lamp", true)).hasMessageContaining("payment refused");
      long id = orders.lastJob();
      assertThat(id).isPositive();
      assertThat(orders.count("lamp")).isZero();
      assertThat(app.getBean(TaskQJobs.class).client().find(id)).isEmpty();
      assertThat(BootApp.MAILED).doesNotContain("{\"item\": \"lamp\"}");
    }
  }

  @Test
  @Tag("SB4")
  void enqueueingInAReadOnlyTransactionIsRefusedClearly(TestServices services) {
    try (ConfigurableApplicationContext app = start(services)) {
      BootApp.Orders orders = app.getBean(BootApp.Orders.class);
      assertThatThrownBy(() -> orders.placeReadOnly("pen"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("read-only transaction");
    }
  }

  @Test
  @Tag("SB5")
  void theHealthEndpointReportsTaskqUpWithTheMaintenanceView(TestServices services)
      throws Exception {
    try (ConfigurableApplicationContext app = start(services)) {
      HttpResponse<String> health = get(app, "/actuator/health/taskq");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body())
          .contains("\"status\":\"UP\"")
          .contains("\"degraded\":")
          .contains("\"state\":\"running\"")
          .contains("\"schema\":\"" + services.schema() + "\"");
    }
  }

  @Test
  @Tag("SB5")
  void prometheusShowsEachTaskqMeterOnce(TestServices services) throws Exception {
    BootApp.slowJobs = new CountDownLatch(0);
    try (ConfigurableApplicationContext app =
        start(services, "--taskq.metrics.sample-period=200ms")) {
      app.getBean(TaskQJobs.class).enqueue(JobRequest.of("send-mail", "{\"item\": \"metric\"}"));
      // A queue no worker serves keeps a pending job, so the queue gauges have a reading.
      app.getBean(TaskQJobs.class)
          .enqueue(JobRequest.builder("send-mail").queue("parked").payloadJson("{}").build());
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> get(app, "/actuator/prometheus").body().contains("taskq_jobs_succeeded"));
      String scrape = get(app, "/actuator/prometheus").body();
      List<String> types = scrape.lines().filter(l -> l.startsWith("# TYPE taskq_")).toList();
      assertThat(types)
          .anyMatch(l -> l.startsWith("# TYPE taskq_maintenance_leader_is_leader "))
          .anyMatch(l -> l.startsWith("# TYPE taskq_jobs_enqueued"))
          .doesNotHaveDuplicates();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  get(app, "/actuator/prometheus")
                      .body()
                      .contains("taskq_queue_depth{queue=\"parked\"} 1"));
    }
  }

  @Test
  @Tag("SB6")
  void closingTheContextLetsARunningHandlerFinish(TestServices services) throws Exception {
    BootApp.slowJobs = new CountDownLatch(1);
    BootApp.slowStarted = new CountDownLatch(1);
    long id;
    ConfigurableApplicationContext app = start(services, "--taskq.shutdown-grace=20s");
    try {
      id =
          app.getBean(TaskQJobs.class).enqueue(JobRequest.of("send-mail", "{\"item\": \"drain\"}"));
      assertThat(BootApp.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
      Thread release =
          new Thread(
              () -> {
                try {
                  Thread.sleep(500);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                BootApp.slowJobs.countDown();
              });
      release.start();
    } finally {
      app.close();
    }
    assertThat(BootApp.MAILED).contains("{\"item\": \"drain\"}");
    assertThat(status(services, id)).isEqualTo("succeeded");
  }

  @Test
  @Tag("SB6")
  void closingTheContextReleasesAHandlerThatOutlivesTheGrace(TestServices services)
      throws Exception {
    BootApp.slowJobs = new CountDownLatch(1);
    BootApp.slowStarted = new CountDownLatch(1);
    long id;
    ConfigurableApplicationContext app = start(services, "--taskq.shutdown-grace=300ms");
    try {
      id = app.getBean(TaskQJobs.class).enqueue(JobRequest.of("send-mail", "{\"item\": \"slow\"}"));
      assertThat(BootApp.slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
    } finally {
      app.close();
      BootApp.slowJobs.countDown();
    }
    assertThat(status(services, id)).isEqualTo("pending");
    assertThat(BootApp.MAILED).doesNotContain("{\"item\": \"slow\"}");
  }

  @Test
  @Tag("SB2")
  void badTaskqPropertiesFailStartUpNamingEach(TestServices services) {
    assertThatThrownBy(
            () ->
                start(
                    services,
                    "--taskq.claim-batch-size=0",
                    "--taskq.lease-period=forever",
                    "--taskq.worker-concurrency=-1"))
        .satisfies(
            failure -> {
              Throwable t = failure;
              while (t != null && !(t instanceof TaskQConfigException)) {
                t = t.getCause();
              }
              assertThat(t).isNotNull();
              assertThat(((TaskQConfigException) t).problems()).hasSize(3);
              assertThat(t.getMessage())
                  .contains("taskq.claim-batch-size='0'")
                  .contains("taskq.lease-period='forever'")
                  .contains("taskq.worker-concurrency='-1'")
                  .contains("from property source \"commandLineArgs\"");
            });
  }

  private static String status(TestServices services, long id) throws Exception {
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT status FROM " + services.schema() + ".jobs WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }

  private static HttpResponse<String> get(ConfigurableApplicationContext app, String path)
      throws Exception {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
