package io.taskq.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.core.SchemaName;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class NamesAndKeysTest {
  @Test
  @Tag("M2")
  void wakeChannel_ofSchemaTaskq_isTheGuidesExample() {
    assertThat(WakeChannel.of(SchemaName.of("taskq"))).isEqualTo("taskq_wake_124a200651");
  }

  @Test
  @Tag("M1")
  @Tag("M4")
  void lockKeys_areTheFirstEightBytesOfSha256BigEndian() {
    // Pinned values, computed independently: a change here breaks mixed-version fleets.
    assertThat(AdvisoryLockKeys.key(AdvisoryLockKeys.name("migrate", SchemaName.of("taskq"))))
        .isEqualTo(-3647948443456259706L);
    assertThat(
            AdvisoryLockKeys.key(
                AdvisoryLockKeys.uniqueForName(SchemaName.of("taskq"), "send_email", "user-42")))
        .isEqualTo(-9179419550366893119L);
  }

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
