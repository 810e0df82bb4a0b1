package io.taskq.testing;

import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where the harness reads its settings ({@code TASKQ_TEST_JDBC_URL}, {@code TASKQ_TEST_REDIS_URL}).
 *
 * <p>An interface so that discovery can be tested with a plain map instead of by mutating the real
 * environment. Blank values count as unset.
 */
@FunctionalInterface
interface Settings {
  /** Returns the value of {@code variable}, or {@code null} when it is unset or blank. */
  @Nullable String get(String variable);

  /**
   * The JVM's settings: the system property named like the variable in lower case with dots ({@code
   * -Dtaskq.test.jdbc.url=...}) wins over the environment variable itself.
   */
  static Settings system() {
    return variable -> {
      String property = nonBlank(System.getProperty(propertyName(variable)));
      return property != null ? property : nonBlank(System.getenv(variable));
    };
  }

  /** Settings read from {@code values} alone. */
  static Settings of(Map<String, String> values) {
    return variable -> nonBlank(values.get(variable));
  }

  /** {@code TASKQ_TEST_JDBC_URL} becomes {@code taskq.test.jdbc.url}. */
  static String propertyName(String variable) {
    return variable.toLowerCase(Locale.ROOT).replace('_', '.');
  }

  private static @Nullable String nonBlank(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
