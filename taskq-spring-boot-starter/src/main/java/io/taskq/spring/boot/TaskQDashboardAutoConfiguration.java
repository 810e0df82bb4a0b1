package io.taskq.spring.boot;

import io.taskq.TaskQ;
import io.taskq.dashboard.Dashboard;
import io.taskq.dashboard.DashboardSettings;
import jakarta.servlet.http.HttpServlet;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

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
 * dashboard's own CSRF token and origin check guard every state change in both cases. The two cases
 * are {@code TaskQDashboardSecurity} and {@code TaskQDashboardOwnSignIn}.
 */
@AutoConfiguration(after = TaskQAutoConfiguration.class)
@ConditionalOnClass({Dashboard.class, HttpServlet.class, ServletRegistrationBean.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = "taskq.dashboard.enabled")
@ConditionalOnBean(TaskQ.class)
@Import({TaskQDashboardOwnSignIn.class, TaskQDashboardSecurity.class})
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
}
