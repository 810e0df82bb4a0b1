package io.taskq.spring.boot;

import io.taskq.TaskQConfig;
import io.taskq.dashboard.DashboardSettings;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The dashboard's settings without Spring Security ({@link TaskQDashboardAutoConfiguration}): the
 * dashboard's own sign-in, from the {@code taskq.dashboard-*} settings.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingClass("org.springframework.security.core.context.SecurityContextHolder")
final class TaskQDashboardOwnSignIn {
  @Bean
  @ConditionalOnMissingBean
  DashboardSettings taskqDashboardSettings(TaskQConfig config) {
    return DashboardSettings.fromConfig(config);
  }
}
