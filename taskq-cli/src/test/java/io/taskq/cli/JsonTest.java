package io.taskq.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A8: what {@code --json} prints for each kind of value, hostile text included. */
@Tag("A8")
class JsonTest {
  @Test
  void valuesOfEveryKind_printAsJson() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", 42L);
    row.put("ok", true);
    row.put("ran", Duration.ofSeconds(2));
    row.put("at", Instant.parse("2026-01-02T03:04:05Z"));
    row.put("labels", Arrays.asList("a", null, 1.5));
    row.put("none", null);

    assertThat(Json.write(row))
        .isEqualTo(
            "{\"id\":42,\"ok\":true,\"ran\":2000,\"at\":\"2026-01-02T03:04:05Z\","
                + "\"labels\":[\"a\",null,1.5],\"none\":null}");
  }

  @Test
  void hostileText_isQuotedAndEscaped() {
    String text = "say \"hi\"\\\n\t\u0001</script>é";

    assertThat(Json.write(List.of(text)))
        .isEqualTo("[\"say \\\"hi\\\"\\\\\\n\\t\\u0001</script>é\"]");
    assertThat(Json.write(Map.of("k\"ey", 1))).isEqualTo("{\"k\\\"ey\":1}");
  }
}
