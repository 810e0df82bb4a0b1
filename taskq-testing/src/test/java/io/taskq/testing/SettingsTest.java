package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
  @Test
  void variableName_mapsToADottedLowerCaseProperty() {
    assertThat(Settings.propertyName("TASKQ_TEST_JDBC_URL")).isEqualTo("taskq.test.jdbc.url");
  }

  @Test
  void blankValues_countAsUnset() {
    Settings settings = Settings.of(Map.of("A", "  ", "B", " x "));

    assertThat(settings.get("A")).isNull();
    assertThat(settings.get("B")).isEqualTo("x");
    assertThat(settings.get("C")).isNull();
  }

  @Test
  void systemProperty_winsOverTheEnvironment() {
    assertThat(System.getenv("PATH")).isNotBlank();
    assertThat(Settings.system().get("PATH")).isEqualTo(System.getenv("PATH").trim());
    System.setProperty("path", "/from/property");
    try {
      assertThat(Settings.system().get("PATH")).isEqualTo("/from/property");
    } finally {
      System.clearProperty("path");
    }
  }
}
