package io.taskq.spring.boot;

import io.taskq.TaskQConfig;
import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The dashboard's settings with Spring Security ({@link TaskQDashboardAutoConfiguration}): the
 * application's signed-in user, who may act when granted {@code
 * taskq.dashboard.operator-authority}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(SecurityContextHolder.class)
final class TaskQDashboardSecurity {
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
