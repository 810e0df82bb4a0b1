package io.taskq.spring.boot;

import io.taskq.TaskQConfig;
import io.taskq.TaskQSetting;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.SystemEnvironmentOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Reads TaskQ's settings from a Spring {@link ConfigurableEnvironment} into a {@link
 * TaskQConfig.Builder}, so that the knob catalog checks them all (SB2).
 *
 * <p>Each setting is the property {@code taskq.<kebab-name>} ({@code taskq.claim-batch-size}), in
 * any of Boot's relaxed forms and property sources ({@code application.yml}, system properties,
 * {@code TASKQ_CLAIMBATCHSIZE}), and also its own {@code TASKQ_*} variable ({@code
 * TASKQ_CLAIM_BATCH_SIZE}), read by the catalog exactly as outside Spring. Precedence: a {@code
 * taskq.*} property, then the {@code TASKQ_*} variable, then the default; the two set to different
 * values is an error, reported with the others. Values reach the catalog as text: a bad one is
 * reported by name and origin ({@code application.yml}, line and column) in one message with every
 * other problem, never as Boot's first conversion failure.
 */
final class SpringSettings {
  static final String PREFIX = "taskq.";

  /**
   * Starter properties that are not knobs: their Boot environment forms ({@code TASKQ_ENABLED},
   * {@code TASKQ_METRICS_SAMPLEPERIOD}) are Boot's to read, not unknown TaskQ variables.
   */
  private static final List<String> STARTER_ENV_PREFIXES =
      List.of(
          "TASKQ_ENABLED",
          "TASKQ_MAINTENANCE_",
          "TASKQ_METRICS_",
          "TASKQ_DASHBOARD_ENABLED",
          "TASKQ_HEALTH_");

  private SpringSettings() {}

  /** The builder holding every {@code TASKQ_*} variable and {@code taskq.*} property. */
  static TaskQConfig.Builder read(ConfigurableEnvironment environment) {
    TaskQConfig.Builder builder = TaskQConfig.builder(taskqVariables(environment));
    for (TaskQSetting setting : TaskQConfig.settings()) {
      String name = propertyName(setting);
      Optional<Found> found =
          setting.isList() ? findList(environment, name) : findScalar(environment, setting, name);
      found.ifPresent(f -> builder.setProperty(setting.envName(), f.text(), name, f.origin()));
    }
    return builder;
  }

  /** Whether the setting of {@code envName} is given as a property or as its variable. */
  static boolean isGiven(ConfigurableEnvironment environment, String envName) {
    if (taskqVariables(environment).containsKey(envName)) {
      return true;
    }
    for (TaskQSetting setting : TaskQConfig.settings()) {
      if (setting.envName().equals(envName)) {
        return (setting.isList()
                ? findList(environment, propertyName(setting))
                : findScalar(environment, setting, propertyName(setting)))
            .isPresent();
      }
    }
    return false;
  }

  /** {@code taskq.claim-batch-size} for {@code TASKQ_CLAIM_BATCH_SIZE}. */
  static String propertyName(TaskQSetting setting) {
    return PREFIX + setting.kebabName();
  }

  private record Found(String text, String origin) {}

  /**
   * The first property source, in Spring's order, holding the property in a relaxed form; a hit on
   * the setting's own {@code TASKQ_*} variable (Boot maps it to the property too) is skipped, since
   * the catalog reads that one as the environment.
   */
  private static Optional<Found> findScalar(
      ConfigurableEnvironment environment, TaskQSetting setting, String name) {
    ConfigurationPropertyName key = ConfigurationPropertyName.of(name);
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      ConfigurationProperty property = source.getConfigurationProperty(key);
      if (property == null || isOwnVariable(property.getOrigin(), setting)) {
        continue;
      }
      Object value = property.getValue();
      String text = environment.resolvePlaceholders(String.valueOf(value));
      return Optional.of(new Found(text, describe(property.getOrigin(), source)));
    }
    return Optional.empty();
  }

  /** A list setting, bound as Boot binds lists (comma-separated or indexed), joined by commas. */
  private static Optional<Found> findList(ConfigurableEnvironment environment, String name) {
    return Binder.get(environment)
        .bind(name, Bindable.listOf(String.class))
        .map(values -> new Found(String.join(",", values), "the property " + name))
        .map(Optional::of)
        .orElse(Optional.empty());
  }

  private static boolean isOwnVariable(@Nullable Origin origin, TaskQSetting setting) {
    return origin instanceof SystemEnvironmentOrigin env
        && env.getProperty().equals(setting.envName());
  }

  private static String describe(@Nullable Origin origin, ConfigurationPropertySource source) {
    if (origin != null) {
      return origin.toString();
    }
    Object underlying = source.getUnderlyingSource();
    return underlying instanceof PropertySource<?> ps
        ? "property source '" + ps.getName() + "'"
        : "property source " + underlying;
  }

  /**
   * The {@code TASKQ_*} variables of the environment's system-environment source, for the catalog:
   * unknown names are its errors ("did you mean"), except Boot's own forms of {@code taskq.*}
   * properties ({@code TASKQ_CLAIMBATCHSIZE}), which are read above as properties.
   */
  static Map<String, String> taskqVariables(ConfigurableEnvironment environment) {
    PropertySource<?> source =
        environment
            .getPropertySources()
            .get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    Map<String, String> out = new TreeMap<>();
    if (!(source instanceof EnumerablePropertySource<?> variables)) {
      return out;
    }
    Set<String> bootForms = bootForms();
    for (String name : variables.getPropertyNames()) {
      String upper = name.toUpperCase(Locale.ROOT);
      if (upper.startsWith("TASKQ_") && !bootForms.contains(upper) && !isStarterVariable(upper)) {
        Object value = variables.getProperty(name);
        out.put(name, value == null ? "" : value.toString());
      }
    }
    return out;
  }

  /** {@code TASKQ_CLAIMBATCHSIZE}: Boot's environment form of each setting's property. */
  private static Set<String> bootForms() {
    Set<String> out = new HashSet<>();
    for (TaskQSetting setting : TaskQConfig.settings()) {
      String form = "TASKQ_" + setting.kebabName().replace("-", "").toUpperCase(Locale.ROOT);
      if (!form.equals(setting.envName())) {
        out.add(form);
      }
    }
    return out;
  }

  private static boolean isStarterVariable(String upperName) {
    return STARTER_ENV_PREFIXES.stream().anyMatch(upperName::startsWith);
  }
}
