package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;

/** SB6: the dashboard mounted in the application's servlet container, behind its security. */
@TaskQTest
@Tag("SB6")
class TaskQDashboardMountTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @AfterEach
  void clearSecurity() {
    SecurityContextHolder.clearContext();
  }

  /**
   * With Spring Security on the class path (real, in this module's tests) the dashboard lives
   * behind the application's own filter chain: BootApp's rules answer first (HTTP basic, {@code
   * /ops/**} for role {@code OPS}), and the dashboard then serves the user Spring Security signed
   * in.
   */
  @Test
  void withSpringSecurityTheDashboardIsBehindTheApplicationsOwnSecurity(TestServices services)
      throws Exception {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(BootApp.class)
            .run(
                "--spring.datasource.url=" + services.jdbcUrl(),
                "--server.port=0",
                "--taskq.schema-name=" + services.schema(),
                "--taskq.dashboard.enabled=true",
                "--taskq.dashboard-path=/ops/queue",
                "--spring.main.banner-mode=off")) {
      HttpResponse<String> anonymous = get(app, "/ops/queue/", null);
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
          .as("answered by the application's HTTP basic, before the dashboard")
          .hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
      assertThat(get(app, "/ops/queue/", "ana:wrong").statusCode()).isEqualTo(401);
      assertThat(get(app, "/ops/queue/", "cy:cy-pw").statusCode())
          .as("signed in, but the application's rule wants role OPS")
          .isEqualTo(403);

      HttpResponse<String> viewer = get(app, "/ops/queue/", "bo:bo-pw");
      assertThat(viewer.statusCode()).isEqualTo(200);
      assertThat(viewer.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
      assertThat(viewer.headers().firstValue("Content-Security-Policy")).isPresent();
      assertThat(viewer.body()).contains("/ops/queue/").contains("id=\"read-only\"");

      HttpResponse<String> operator = get(app, "/ops/queue/", "ana:ana-pw");
      assertThat(operator.statusCode()).isEqualTo(200);
      assertThat(operator.body())
          .as("granted ROLE_TASKQ_OPERATOR: may act")
          .doesNotContain("id=\"read-only\"");

      assertThat(get(app, "/taskq/", "ana:ana-pw").statusCode()).isEqualTo(404);
      assertThat(get(app, "/actuator/health", null).statusCode())
          .as("the application's other paths keep its own rules")
          .isEqualTo(200);
    }
  }

  @Test
  void anAuthenticatedUserMayActOnlyWithTheOperatorAuthority() {
    assertThat(TaskQDashboardSecurity.signedIn("ROLE_TASKQ_OPERATOR")).isEmpty();
    SecurityContextHolder.getContext()
        .setAuthentication(
            UsernamePasswordAuthenticationToken.authenticated(
                "ana", null, List.of(new SimpleGrantedAuthority("ROLE_TASKQ_OPERATOR"))));
    assertThat(TaskQDashboardSecurity.signedIn("ROLE_TASKQ_OPERATOR"))
        .isEqualTo(Optional.of(new DashboardUser("ana", true)));
    SecurityContextHolder.getContext()
        .setAuthentication(
            UsernamePasswordAuthenticationToken.authenticated("bo", null, List.of()));
    assertThat(TaskQDashboardSecurity.signedIn("ROLE_TASKQ_OPERATOR"))
        .isEqualTo(Optional.of(new DashboardUser("bo", false)));
  }

  private static WebApplicationContextRunner web(TestServices services) {
    return new WebApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                TaskQAutoConfiguration.class, TaskQDashboardAutoConfiguration.class))
        .withBean(
            javax.sql.DataSource.class, services::dataSource, bd -> bd.setDestroyMethodName(""))
        .withPropertyValues(
            "taskq.schema-name=" + services.schema(), "taskq.maintenance.enabled=false");
  }

  @Test
  void offByDefault(TestServices services) {
    web(services).run(context -> assertThat(context).doesNotHaveBean("taskqDashboard"));
  }

  @Test
  void withoutSpringSecurityItSignsUsersInWithItsOwnCredentials(TestServices services) {
    web(services)
        .withClassLoader(new FilteredClassLoader(SecurityContextHolder.class))
        .withPropertyValues(
            "taskq.dashboard.enabled=true", "taskq.dashboard-token=a-token-of-sixteen-chars")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(DashboardSettings.class).signsIn()).isTrue();
              ServletRegistrationBean<?> mount =
                  (ServletRegistrationBean<?>) context.getBean("taskqDashboard");
              assertThat(mount.getUrlMappings()).containsExactly("/taskq/*");
            });
  }

  @Test
  void withoutSpringSecurityOrCredentialsStartUpIsRefused(TestServices services) {
    web(services)
        .withClassLoader(new FilteredClassLoader(SecurityContextHolder.class))
        .withPropertyValues("taskq.dashboard.enabled=true")
        .run(context -> assertThat(context).hasFailed());
  }

  private static HttpResponse<String> get(
      ConfigurableApplicationContext app, String path, @Nullable String credentials)
      throws Exception {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (credentials != null) {
      request.header(
          "Authorization",
          "Basic "
              + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
