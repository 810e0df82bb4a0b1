package io.taskq.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobStatus;
import io.taskq.testing.EnqueuedJob;
import io.taskq.testing.JobMatcher;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestJobs;
import io.taskq.testing.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SB1, SB4: the orders application as it runs, on the real PostgreSQL (a schema of its own from
 * {@code @TaskQTest}), its embedded web server on a free port, driven by real HTTP requests. A
 * placed order commits its row and its job together and the job runs; an order refused for want of
 * stock rolls back both.
 */
@TaskQTest(schemaPrefix = "boot")
@Tag("SB1")
@Tag("SB4")
class OrdersApplicationTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern PLACED = Pattern.compile("\\{\"order\":(\\d+),\"job\":(\\d+)}");

  /** The application as {@code main} starts it, on the test's schema and a free port. */
  private static ConfigurableApplicationContext start(TestServices services) {
    return new SpringApplicationBuilder(OrdersApplication.class)
        .run(
            "--spring.datasource.url=" + services.jdbcUrl(),
            "--spring.datasource.hikari.schema=" + services.schema(),
            "--taskq.schema-name=" + services.schema(),
            "--taskq.poll-interval=100ms",
            "--server.port=0",
            "--spring.main.banner-mode=off");
  }

  @Test
  void aPlacedOrderCommitsItsRowAndItsJob_andTheJobConfirmsIt(TestServices services)
      throws Exception {
    try (ConfigurableApplicationContext app = start(services)) {
      TestJobs jobs = TestJobs.of(services).onlyNew();

      HttpResponse<String> placed = post(app, "/orders", "{\"item\": \"book\", \"quantity\": 3}");

      assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
      Matcher ids = PLACED.matcher(placed.body());
      assertThat(ids.matches()).as(placed.body()).isTrue();
      long order = Long.parseLong(ids.group(1));
      long job = Long.parseLong(ids.group(2));
      assertThat(orders(services, "book")).isEqualTo(1);
      jobs.assertEnqueued(
          JobMatcher.actor(OrdersApplication.CONFIRM_ORDER).payloadEquals(Long.toString(order)), 1);

      EnqueuedJob ran = jobs.awaitTerminal(job, Duration.ofSeconds(20));
      assertThat(ran.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(get(app, "/orders/" + order).body())
          .isEqualTo("{\"id\":" + order + ",\"item\":\"book\",\"quantity\":3,\"confirmed\":true}");
    }
  }

  @Test
  void anOrderRefusedForWantOfStockRollsBackItsRowAndItsJob(TestServices services)
      throws Exception {
    try (ConfigurableApplicationContext app = start(services)) {
      TestJobs jobs = TestJobs.of(services).onlyNew();

      HttpResponse<String> refused = post(app, "/orders", "{\"item\": \"lamp\", \"quantity\": 5}");

      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
      assertThat(orders(services, "lamp")).isZero();
      jobs.assertNoneEnqueued(JobMatcher.actor(OrdersApplication.CONFIRM_ORDER));
      assertThat(stock(services, "lamp")).isEqualTo(2);

      // The same request within the stock commits: the refusal left nothing behind to block it.
      HttpResponse<String> placed = post(app, "/orders", "{\"item\": \"lamp\", \"quantity\": 2}");
      assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
      assertThat(orders(services, "lamp")).isEqualTo(1);
      jobs.assertEnqueued(JobMatcher.actor(OrdersApplication.CONFIRM_ORDER), 1);
    }
  }

  private static HttpResponse<String> post(
      ConfigurableApplicationContext app, String path, String json) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(uri(app, path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(ConfigurableApplicationContext app, String path)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(uri(app, path)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(ConfigurableApplicationContext app, String path) {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static int orders(TestServices services, String item) throws Exception {
    return count(
        services, "SELECT count(*) FROM " + services.schema() + ".orders WHERE item = ?", item);
  }

  private static int stock(TestServices services, String item) throws Exception {
    return count(
        services, "SELECT available FROM " + services.schema() + ".stock WHERE item = ?", item);
  }

  private static int count(TestServices services, String sql, String item) throws Exception {
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, item);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getInt(1);
      }
    }
  }
}
