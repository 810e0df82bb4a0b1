package io.taskq.spring.boot;

import io.taskq.Actor;
import io.taskq.testing.TestServices;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Context runners on the test class's database, with the starter's auto-configurations. */
final class Contexts {
  private Contexts() {}

  /**
   * The starter alone, on the class's pool and schema, maintenance off (quicker, fewer sessions).
   */
  static ApplicationContextRunner on(TestServices services) {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                TaskQAutoConfiguration.class,
                TaskQMetricsAutoConfiguration.class,
                TaskQHealthAutoConfiguration.class))
        // The class's pool outlives each context: no destroy method closes it.
        .withBean(DataSource.class, services::dataSource, bd -> bd.setDestroyMethodName(""))
        .withPropertyValues(
            "taskq.schema-name=" + services.schema(), "taskq.maintenance.enabled=false");
  }

  /** Replaces the context's system environment with {@code variables} (the process's stays). */
  static void environment(ConfigurableApplicationContext context, Map<String, Object> variables) {
    context
        .getEnvironment()
        .getPropertySources()
        .replace(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
  }

  /** An actor that does nothing. */
  static Actor<String> idle(String name) {
    return Actor.rawJson(name, (json, ctx) -> null);
  }
}
