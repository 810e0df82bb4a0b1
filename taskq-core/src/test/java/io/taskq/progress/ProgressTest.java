package io.taskq.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a progress report may carry, checked the same way for every store. */
@Tag("M5")
class ProgressTest {
  @Test
  void validReports_pass() {
    assertThatCode(() -> Progress.validate(0.0, "", null)).doesNotThrowAnyException();
    assertThatCode(() -> Progress.validate(1.0, "x".repeat(512), "[1,{\"a\":null}]"))
        .doesNotThrowAnyException();
    Progress progress = new Progress(1, 0.5, "half", null, Instant.EPOCH);
    assertThat(progress.detail()).isEmpty();
  }

  @Test
  void fractionOutsideZeroToOne_isRefused() {
    for (double bad : new double[] {-0.01, 1.0001, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> Progress.validate(bad, "m", null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("progress fraction must be in 0.0..1.0, was " + bad);
    }
  }

  @Test
  void overlongMessageOrDetail_isRefused() {
    assertThatThrownBy(() -> Progress.validate(0.5, "x".repeat(513), null))
        .hasMessage("progress message must be at most 512 chars, was 513");
    String big = "\"" + "y".repeat(Progress.MAX_DETAIL_CHARS) + "\"";
    assertThatThrownBy(() -> Progress.validate(0.5, "m", big))
        .hasMessage("progress detail must be at most 16384 chars of JSON, was 16386");
  }

  @Test
  @Tag("F6")
  void nulInMessageOrDetail_isRefused() {
    assertThatThrownBy(() -> Progress.validate(0.5, "a\u0000", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("progress message contains a NUL character (U+0000) at index 1");
    assertThatThrownBy(() -> Progress.validate(0.5, "m", "\"\\u0000\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("progress detail (JSON escape \\u0000)");
  }

  @Test
  void detailThatIsNotJson_isRefusedWithTheReason() {
    assertThatThrownBy(() -> Progress.validate(0.5, "m", "{'single': 1}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("progress detail is not valid JSON: ");
  }
}
