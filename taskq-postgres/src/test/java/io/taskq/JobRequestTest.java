package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("L2")
class JobRequestTest {
  @Test
  void defaults_areDocumented() {
    JobRequest r = JobRequest.builder("send_email").build();

    assertThat(r.queue()).isEqualTo("default");
    assertThat(r.payloadJson()).isEqualTo("{}");
    assertThat(r.priority()).isZero();
    assertThat(r.runAt()).isNull();
    assertThat(r.delay()).isNull();
    assertThat(r.scheduleToClose()).isNull();
    assertThat(r.retryPolicy()).isEqualTo(RetryPolicy.defaults());
    assertThat(r.labels()).isEmpty();
    assertThat(r.uniqueKey()).isNull();
  }

  @Test
  @Tag("F6")
  void nulInAnyCallerText_isRejectedNamingTheField() {
    assertThatThrownBy(() -> JobRequest.of("a\0b", "{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("actor contains a NUL character (U+0000) at index 1");
    assertThatThrownBy(() -> JobRequest.of("a", "\"x\0\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("payload contains a NUL character");
    assertThatThrownBy(() -> JobRequest.of("a", "\"x\\u0000\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload is not valid JSON")
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> JobRequest.builder("a").queue("q\0"))
        .hasMessageStartingWith("queue contains a NUL character");
    assertThatThrownBy(() -> JobRequest.builder("a").labels(Map.of("k\0", "v")))
        .hasMessageStartingWith("label key contains a NUL character");
    assertThatThrownBy(() -> JobRequest.builder("a").labels(Map.of("k", "v\0")))
        .hasMessageStartingWith("value of label 'k' contains a NUL character");
    assertThatThrownBy(() -> JobRequest.builder("a").uniqueFor(Duration.ofMinutes(1), "\0"))
        .hasMessageStartingWith("unique identity key contains a NUL character");
  }

  @Test
  void names_mustBeOneTo128Characters() {
    assertThatThrownBy(() -> JobRequest.builder(""))
        .hasMessage("actor must be 1 to 128 characters, was 0");
    assertThatThrownBy(() -> JobRequest.builder("a").queue("q".repeat(129)))
        .hasMessage("queue must be 1 to 128 characters, was 129");
    assertThat(JobRequest.builder("a".repeat(128)).queue("q".repeat(128)).build().queue())
        .hasSize(128);
  }

  @Test
  void payload_mustBeNonBlankValidJson() {
    assertThatThrownBy(() -> JobRequest.of("a", "  "))
        .hasMessage("payload must be a JSON value, was blank");
    assertThatThrownBy(() -> JobRequest.of("a", "{\"a\":}"))
        .hasMessageStartingWith("payload is not valid JSON: invalid JSON at offset 5");
  }

  @Test
  void ranges_areCheckedAtOnceNamingTheArgument() {
    JobRequest.Builder b = JobRequest.builder("a");
    assertThatThrownBy(() -> b.priority(40_000))
        .hasMessage("priority must be in [-32768, 32767], was 40000");
    assertThatThrownBy(() -> b.delay(Duration.ofSeconds(-1)))
        .hasMessageStartingWith("delay must be in [PT0S, PT87600H], was PT-1S");
    assertThatThrownBy(() -> b.scheduleToClose(Duration.ZERO))
        .hasMessageStartingWith("scheduleToClose must be in [PT0.001S");
    assertThatThrownBy(() -> b.uniqueFor(Duration.ofDays(4000), "k"))
        .hasMessageStartingWith("uniqueFor window must be in");
    assertThatThrownBy(() -> b.uniqueFor(Duration.ofMinutes(1), "k".repeat(257)))
        .hasMessage("unique identity key must be 1 to 256 characters, was 257");
    assertThatThrownBy(() -> b.maxAttempts(0))
        .hasMessage("maxAttempts must be in [1, 1000000], was 0");
    assertThatThrownBy(() -> b.runAt(Instant.parse("+10000-01-01T00:00:00Z")))
        .hasMessageStartingWith("runAt must be between");
    assertThatThrownBy(() -> b.labels(Map.of("k", "v".repeat(1025))))
        .hasMessage("value of label 'k' must be at most 1024 characters, was 1025");
  }

  @Test
  void runAtAndDelay_replaceEachOther() {
    Instant at = Instant.parse("2030-01-01T00:00:00Z");
    JobRequest delayed = JobRequest.builder("a").runAt(at).delay(Duration.ofSeconds(5)).build();
    JobRequest timed = JobRequest.builder("a").delay(Duration.ofSeconds(5)).runAt(at).build();

    assertThat(delayed.runAt()).isNull();
    assertThat(delayed.delay()).isEqualTo(Duration.ofSeconds(5));
    assertThat(timed.runAt()).isEqualTo(at);
    assertThat(timed.delay()).isNull();
  }

  @Test
  void maxAttempts_overridesThePolicyWhicheverIsSetFirst() {
    RetryPolicy linear =
        RetryPolicy.of(
            RetryPolicy.Backoff.LINEAR, Duration.ofSeconds(2), Duration.ofMinutes(1), 0, 9);

    JobRequest r = JobRequest.builder("a").maxAttempts(3).retryPolicy(linear).build();

    assertThat(r.retryPolicy()).isEqualTo(linear.withMaxAttempts(3));
    assertThat(r.toBuilder().build().retryPolicy()).isEqualTo(linear.withMaxAttempts(3));
  }

  @Test
  void toString_neverShowsThePayload() {
    JobRequest r = JobRequest.of("a", "{\"secret\": \"hunter2\"}");

    assertThat(r.toString()).doesNotContain("hunter2").contains("payloadBytes=21");
    assertThat(r.payloadBytes()).isEqualTo(21);
  }
}
