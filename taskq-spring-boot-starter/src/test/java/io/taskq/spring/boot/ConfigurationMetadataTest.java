package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.TaskQConfig;
import io.taskq.TaskQSetting;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.json.JsonParserFactory;

/** SB2: the IDE metadata documents every setting, with the catalog's default. */
@Tag("SB2")
class ConfigurationMetadataTest {

  @Test
  void everySettingHasADescribedPropertyWithTheCatalogsDefault() throws Exception {
    Map<String, Map<String, Object>> byName = properties();
    for (TaskQSetting setting : TaskQConfig.settings()) {
      String name = SpringSettings.propertyName(setting);
      assertThat(byName).as(name).containsKey(name);
      Map<String, Object> property = byName.get(name);
      assertThat((String) property.get("description"))
          .as(name)
          .isNotBlank()
          .contains(setting.envName());
      if (!setting.defaultText().equals("unset")) {
        assertThat(property.get("defaultValue")).as(name).isEqualTo(setting.defaultText());
      }
    }
    assertThat(byName).containsKeys("taskq.enabled", "taskq.maintenance.enabled");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> properties() throws Exception {
    try (InputStream in =
        ConfigurationMetadataTest.class.getResourceAsStream(
            "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("generated metadata").isNotNull();
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      List<Object> properties =
          (List<Object>) JsonParserFactory.getJsonParser().parseMap(json).get("properties");
      Map<String, Map<String, Object>> out = new java.util.HashMap<>();
      for (Object p : properties) {
        Map<String, Object> property = (Map<String, Object>) p;
        out.put((String) property.get("name"), property);
      }
      return out;
    }
  }
}
