package io.taskq.spring.boot;

import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.dashboard.Dashboard;
import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import jakarta.servlet.http.HttpServlet;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The TaskQ dashboard ({@code taskq-dashboard}) mounted in the application's own servlet container
 * (SB6), when that module is on the class path and {@code taskq.dashboard.enabled=true} (off by
 * default, W3). It is served under {@code taskq.dashboard-path} (default {@code /taskq}).
 *
 * <p><b>Who may see and act.</b> With Spring Security on the class path the dashboard trusts the
 * application's authentication: the signed-in user of the request (anonymous users get 401), who
 * may act when granted {@code taskq.dashboard.operator-authority} (default {@code
 * ROLE_TASKQ_OPERATOR}) and sees read-only pages otherwise. Without Spring Security it signs users
 * in itself with {@code taskq.dashboard-token} or {@code taskq.dashboard-user} and {@code
 * -password}, and refuses to start without them unless {@code taskq.dashboard-read-only=true}. The
 * dashboard's own CSRF token and origin check guard every state change in both cases.
 */
@AutoConfiguration(after = TaskQAutoConfiguration.class)
@ConditionalOnClass({Dashboard.class, HttpServlet.class, ServletRegistrationBean.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = "taskq.dashboard.enabled")
@ConditionalOnBean(TaskQ.class)
public final class TaskQDashboardAutoConfiguration {
  /** Created by Spring. */
  public TaskQDashboardAutoConfiguration() {}

  /** The dashboard servlet at {@code <taskq.dashboard-path>/*}. */
  @Bean
  @ConditionalOnMissingBean(name = "taskqDashboard")
  ServletRegistrationBean<HttpServlet> taskqDashboard(TaskQ taskq, DashboardSettings settings) {
    ServletRegistrationBean<HttpServlet> registration =
        new ServletRegistrationBean<>(
            new TaskQDashboardServlet(Dashboard.create(taskq, settings)),
            settings.path().equals("/") ? "/*" : settings.path() + "/*");
    registration.setName("taskqDashboard");
    return registration;
  }

  /**
   * Without Spring Security: the dashboard's own sign-in, from the {@code taskq.dashboard-*}
   * settings.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingClass("org.springframework.security.core.context.SecurityContextHolder")
  static final class OwnSignIn {
    @Bean
    @ConditionalOnMissingBean
    DashboardSettings taskqDashboardSettings(TaskQConfig config) {
      return DashboardSettings.fromConfig(config);
    }
  }

  /** With Spring Security: the application's signed-in user. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(SecurityContextHolder.class)
  static final class ApplicationSecurity {
    @Bean
    @ConditionalOnMissingBean
    DashboardSettings taskqDashboardSettings(TaskQConfig config, TaskQProperties properties) {
      String operator = properties.getDashboard().getOperatorAuthority();
      DashboardSettings.Builder b =
          DashboardSettings.builder()
              .path(config.dashboardPath())
              .readOnly(config.dashboardReadOnly())
              .access(request -> signedIn(operator));
      config.dashboardOrigin().ifPresent(o -> b.origins(List.of(o)));
      return b.build();
    }

    /** The request's authenticated, non-anonymous user, if any. */
    static Optional<DashboardUser> signedIn(String operatorAuthority) {
      Authentication auth = SecurityContextHolder.getContext().getAuthentication();
      if (auth == null
          || !auth.isAuthenticated()
          || auth.getClass().getSimpleName().equals("AnonymousAuthenticationToken")) {
        return Optional.empty();
      }
      boolean mayAct =
          auth.getAuthorities().stream().anyMatch(a -> operatorAuthority.equals(a.getAuthority()));
      return Optional.of(new DashboardUser(auth.getName(), mayAct));
    }
  }
}
