package io.taskq.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Decisions are consistent by construction; each unavailability policy decides as documented. */
class DecisionAndPolicyTest {
  @Test
  void decision_refusesInconsistentComponents() {
    assertThatThrownBy(() -> new Decision(true, Duration.ofSeconds(1), 0, false))
        .hasMessage("an allowed decision has retryAfter zero, was PT1S");
    assertThatThrownBy(() -> Decision.denied(Duration.ofSeconds(-1), 0))
        .hasMessage("retryAfter must not be negative, was PT-1S");
    assertThatThrownBy(() -> Decision.allowed(-2))
        .hasMessage("remaining must be -1 (unknown) or at least 0, was -2");
  }

  @Test
  void asDegraded_marksWithoutChangingTheAnswer() {
    Decision denied = Decision.denied(Duration.ofMillis(5), 0);

    assertThat(denied.asDegraded()).isEqualTo(new Decision(false, Duration.ofMillis(5), 0, true));
    assertThat(denied.asDegraded().asDegraded()).isEqualTo(denied.asDegraded());
  }

  @Test
  @Tag("D14")
  void failOpen_admitsWithUnknownRemaining() {
    assertThat(UnavailablePolicy.failOpen().decide("api", 3))
        .isEqualTo(new Decision(true, Duration.ZERO, Decision.UNKNOWN_REMAINING, true));
  }

  @Test
  @Tag("D14")
  void failClosed_refusesWithItsRetryAfter_whichMustBePositive() {
    assertThat(UnavailablePolicy.failClosed(Duration.ofSeconds(2)).decide("api", 1))
        .isEqualTo(new Decision(false, Duration.ofSeconds(2), Decision.UNKNOWN_REMAINING, true));
    assertThatThrownBy(() -> UnavailablePolicy.failClosed(Duration.ZERO))
        .hasMessage("fail-closed retryAfter must be positive, was PT0S");
  }

  @Test
  @Tag("D14")
  void fallback_asksItsLimiter_andMarksTheAnswerDegraded() {
    RateLimiter second = (name, permits) -> Decision.allowed(name.length() + permits);

    assertThat(UnavailablePolicy.fallbackTo(second).decide("api", 2))
        .isEqualTo(new Decision(true, Duration.ZERO, 5, true));
  }

  @Test
  void defaultTryAcquire_takesOnePermit() {
    RateLimiter echo = (name, permits) -> Decision.allowed(permits);

    assertThat(echo.tryAcquire("x").remaining()).isEqualTo(1);
  }
}
