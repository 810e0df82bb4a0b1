package io.taskq.postgres.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("F6")
class ResultTextTest {
  @Test
  void jsonWithoutNul_isUnchanged() {
    String json = "{\"a\": \"b\\\\u0000c\", \"d\": [1, 2]}";
    assertThat(ResultText.sanitize(json)).isEqualTo(json);
    assertThat(ResultText.sanitize("[1]")).isSameAs("[1]");
  }

  @Test
  void escapedNul_becomesTheVisibleEscape() {
    assertThat(ResultText.sanitize("{\"a\": \"x\\u0000y\"}")).isEqualTo("{\"a\": \"x\\\\x00y\"}");
  }

  @Test
  void rawNul_becomesTheVisibleEscape() {
    assertThat(ResultText.sanitize("[\"a\0\"]")).isEqualTo("[\"a\\\\x00\"]");
  }

  @Test
  void escapedBackslashBeforeU0000_isNotANul() {
    assertThat(ResultText.sanitize("[\"\\\\u0000\", \"\\u0000\"]"))
        .isEqualTo("[\"\\\\u0000\", \"\\\\x00\"]");
  }
}
