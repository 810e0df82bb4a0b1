package io.taskq.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.core.internal.JsonSyntax;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class BoundaryTextTest {
  @Test
  void utf8Length_countsLikeTheEncoder() {
    String text = "a\u00e9\u20ac\ud83d\ude00";
    assertThat(CallerText.utf8Length(text))
        .isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
  }

  @Test
  void jsonWriter_escapesQuotesBackslashesAndControls() {
    Map<String, String> labels = new TreeMap<>();
    labels.put("a\"b", "c\\d\n\u0001");
    assertThat(JsonWriter.object(labels)).isEqualTo("{\"a\\\"b\":\"c\\\\d\\n\\u0001\"}");
    assertThat(JsonSyntax.problem(JsonWriter.object(labels))).isNull();
  }
}
