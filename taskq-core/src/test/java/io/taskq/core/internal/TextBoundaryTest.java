package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("F6")
class TextBoundaryTest {
  /** The JSON escape for U+0000, built so no Java unicode escape appears in this source. */
  private static final String JSON_NUL_ESCAPE = "\\" + "u0000";

  @Test
  void sanitizeDerived_replacesEachNulWithTheVisibleEscape() {
    String sanitized = TextBoundary.sanitizeDerived("a\0b\0\0");
    assertThat(sanitized).isEqualTo("a\\x00b\\x00\\x00").doesNotContain("\0");
    assertThat("\\x00").hasSize(4);
  }

  @Test
  void sanitizeDerived_keepsNullAndCleanTextAsTheyAre() {
    String clean = "no nul here";
    assertThat(TextBoundary.sanitizeDerived(null)).isNull();
    assertThat(TextBoundary.sanitizeDerived(clean)).isSameAs(clean);
    assertThat(TextBoundary.escapeNul("")).isEmpty();
  }

  @Test
  void requireNoNul_returnsACleanValue() {
    assertThat(TextBoundary.requireNoNul("queue-a", "queue name")).isEqualTo("queue-a");
  }

  @Test
  void requireNoNul_rejectsNamingTheValueAndTheIndex() {
    assertThatThrownBy(() -> TextBoundary.requireNoNul("abc\0d\0", "label key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "label key contains a NUL character (U+0000) at index 3; PostgreSQL text cannot"
                + " store it");
  }

  @Test
  void requireNoNulInJson_rejectsTheJsonEscapeForNul() {
    String json = "{\"a\":\"x" + JSON_NUL_ESCAPE + "\"}";
    assertThatThrownBy(() -> TextBoundary.requireNoNulInJson(json, "payload"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "payload (JSON escape "
                + JSON_NUL_ESCAPE
                + ") contains a NUL character (U+0000) at index 7; PostgreSQL text cannot store it");
  }

  @Test
  void requireNoNulInJson_rejectsARawNul() {
    assertThatThrownBy(() -> TextBoundary.requireNoNulInJson("{\"a\":\"\0\"}", "metadata"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("metadata contains a NUL character (U+0000) at index 6");
  }

  @Test
  void requireNoNulInJson_rejectsTheEscapeAfterAnEscapedBackslash() {
    String json = "\"\\\\" + JSON_NUL_ESCAPE + "\"";
    assertThatThrownBy(() -> TextBoundary.requireNoNulInJson(json, "payload"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at index 3");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"a\":\"\\\\u0000\"}",
        "{\"a\":\"\\u0001\"}",
        "{\"a\":\"\\n\\\"u0000\"}",
        "{\"a\":1}",
        "\"trailing\\\\\"",
        "\\"
      })
  void requireNoNulInJson_acceptsTextThatOnlyLooksLikeTheEscape(String json) {
    assertThat(TextBoundary.requireNoNulInJson(json, "payload")).isSameAs(json);
  }

  @Test
  void errorMessage_isNullWhenTheExceptionHasNone() {
    assertThat(TextBoundary.errorMessage(new IllegalStateException())).isNull();
  }

  @Test
  void errorMessage_isSanitised() {
    assertThat(TextBoundary.errorMessage(new IllegalStateException("bad\0byte")))
        .isEqualTo("bad\\x00byte");
  }

  @Test
  void errorMessage_isBoundedWithATruncationMarker() {
    String message = TextBoundary.errorMessage(new IllegalStateException("m".repeat(10_000)));
    assertThat(message)
        .hasSizeBetween(TextBoundary.MAX_MESSAGE_CHARS - 2, TextBoundary.MAX_MESSAGE_CHARS)
        .startsWith("mmm")
        .endsWith("...[truncated 5930 chars]");
  }

  @Test
  void errorMessage_survivesAGetMessageThatThrows() {
    RuntimeException hostile =
        new RuntimeException() {
          private static final long serialVersionUID = 1L;

          @Override
          public String getMessage() {
            throw new UnsupportedOperationException("nope");
          }
        };
    assertThat(TextBoundary.errorMessage(hostile))
        .isEqualTo("(getMessage() threw java.lang.UnsupportedOperationException)");
  }

  @Test
  void stackTrace_includesCausesAndIsSanitised() {
    Exception error =
        new IllegalStateException("outer\0", new IllegalArgumentException("inner\0cause"));
    String trace = TextBoundary.stackTrace(error);
    assertThat(trace)
        .startsWith("java.lang.IllegalStateException: outer\\x00")
        .contains("Caused by: java.lang.IllegalArgumentException: inner\\x00cause")
        .contains("TextBoundaryTest")
        .doesNotContain("\0");
  }

  @Test
  void stackTrace_isBoundedToSixteenKibWithATruncationMarker() {
    String trace = TextBoundary.stackTrace(new IllegalStateException("\0".repeat(20_000)));
    assertThat(TextBoundary.MAX_STACK_TRACE_CHARS).isEqualTo(16 * 1024);
    assertThat(trace)
        .hasSizeBetween(TextBoundary.MAX_STACK_TRACE_CHARS - 2, TextBoundary.MAX_STACK_TRACE_CHARS);
    assertThat(trace)
        .matches("(?s)java\\.lang\\.IllegalStateException: (\\\\x00)+.*")
        .endsWith(" chars]")
        .doesNotContain("\0");
  }

  @Test
  void stackTrace_survivesAThrowableThatCannotBePrinted() {
    RuntimeException hostile =
        new RuntimeException() {
          private static final long serialVersionUID = 1L;

          @Override
          public String getLocalizedMessage() {
            throw new IllegalStateException("cannot print");
          }
        };
    assertThat(TextBoundary.stackTrace(hostile))
        .startsWith(hostile.getClass().getName())
        .contains("stack trace unavailable: printing it threw java.lang.IllegalStateException");
  }

  @Test
  void bounded_leavesShortTextAlone() {
    String text = "x".repeat(64);
    assertThat(TextBoundary.bounded(text, 64)).isSameAs(text);
  }

  @Test
  void bounded_cutsToTheBoundCountingTheMarker() {
    String cut = TextBoundary.bounded("y".repeat(1_000), 100);
    assertThat(cut).isEqualTo("y".repeat(75) + "...[truncated 925 chars]");
  }

  @Test
  void bounded_neverSplitsASurrogatePair() {
    String emoji = "😀";
    for (int prefix = 0; prefix < 4; prefix++) {
      String text = "a".repeat(prefix) + emoji.repeat(200);
      String cut = TextBoundary.bounded(text, 100);
      assertThat(cut.length()).isLessThanOrEqualTo(100);
      String kept = cut.substring(0, cut.indexOf("...[truncated"));
      assertThat(Character.isHighSurrogate(kept.charAt(kept.length() - 1)))
          .as("prefix %d", prefix)
          .isFalse();
      assertThat(kept.codePoints().allMatch(cp -> cp == 'a' || cp == emoji.codePointAt(0)))
          .isTrue();
    }
  }

  @Test
  void bounded_refusesABoundWithNoRoomForTheMarker() {
    assertThatThrownBy(() -> TextBoundary.bounded("text", 63))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxChars must be at least 64, was 63");
  }
}
