package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
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
   * Stands in for the application's Spring Security filter chain: a request naming a user in {@code
   * X-Test-User} is authenticated as that user (an operator when {@code X-Test-Operator}).
   */
  static final class FakeSignIn {
    @Bean
    FilterRegistrationBean<Filter> fakeSignIn() {
      Filter filter =
          (request, response, chain) -> {
            String user = ((HttpServletRequest) request).getHeader("X-Test-User");
            boolean operator = ((HttpServletRequest) request).getHeader("X-Test-Operator") != null;
            try {
              if (user != null) {
                SecurityContextHolder.getContext()
                    .setAuthentication(
                        UsernamePasswordAuthenticationToken.authenticated(
                            user,
                            null,
                            operator
                                ? List.of(new SimpleGrantedAuthority("ROLE_TASKQ_OPERATOR"))
                                : List.of()));
              }
              chain.doFilter(request, response);
            } finally {
              SecurityContextHolder.clearContext();
            }
          };
      return new FilterRegistrationBean<>(filter);
    }
  }

  @Test
  void theDashboardIsServedUnderItsPathToTheApplicationsSignedInUsersOnly(TestServices services)
      throws Exception {
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(BootApp.class, FakeSignIn.class)
            .run(
                "--spring.datasource.url=" + services.jdbcUrl(),
                "--server.port=0",
                "--taskq.schema-name=" + services.schema(),
                "--taskq.dashboard.enabled=true",
                "--taskq.dashboard-path=/ops/queue",
                "--spring.main.banner-mode=off")) {
      HttpResponse<String> anonymous = get(app, "/ops/queue/", null);
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("Content-Security-Policy")).isPresent();

      HttpResponse<String> signedIn = get(app, "/ops/queue/", "ana");
      assertThat(signedIn.statusCode()).isEqualTo(200);
      assertThat(signedIn.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
      assertThat(signedIn.body()).contains("/ops/queue/");

      assertThat(get(app, "/taskq/", "ana").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void anAuthenticatedUserMayActOnlyWithTheOperatorAuthority() {
    assertThat(TaskQDashboardAutoConfiguration.ApplicationSecurity.signedIn("ROLE_TASKQ_OPERATOR"))
        .isEmpty();
    SecurityContextHolder.getContext()
        .setAuthentication(
            UsernamePasswordAuthenticationToken.authenticated(
                "ana", null, List.of(new SimpleGrantedAuthority("ROLE_TASKQ_OPERATOR"))));
    assertThat(TaskQDashboardAutoConfiguration.ApplicationSecurity.signedIn("ROLE_TASKQ_OPERATOR"))
        .isEqualTo(Optional.of(new DashboardUser("ana", true)));
    SecurityContextHolder.getContext()
        .setAuthentication(
            UsernamePasswordAuthenticationToken.authenticated("bo", null, List.of()));
    assertThat(TaskQDashboardAutoConfiguration.ApplicationSecurity.signedIn("ROLE_TASKQ_OPERATOR"))
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
      ConfigurableApplicationContext app, String path, String user) throws Exception {
    int port = ((WebServerApplicationContext) app).getWebServer().getPort();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (user != null) {
      request.header("X-Test-User", user);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
