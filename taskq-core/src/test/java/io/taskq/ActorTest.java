package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.limits.SlidingWindowLog;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class ActorTest {
  private static final JobHandler<String> NOTHING = (payload, context) -> null;

  @Test
  void rawJsonActor_runsOnTheDefaultQueueWithoutItsOwnPolicy() {
    Actor<String> actor = Actor.rawJson("send-email", NOTHING);
    assertThat(actor.name()).isEqualTo("send-email");
    assertThat(actor.queue()).isEqualTo("default");
    assertThat(actor.retryPolicy()).isEmpty();
    assertThat(actor.codec()).isSameAs(PayloadCodec.rawJson());
    assertThat(actor.handler()).isSameAs(NOTHING);
    assertThat(actor).hasToString("Actor{send-email, queue=default, codec=PayloadCodec.rawJson()}");
  }

  @Test
  void builder_setsQueueAndRetryPolicy() {
    RetryPolicy policy =
        RetryPolicy.of(
            RetryPolicy.Backoff.LINEAR, Duration.ofSeconds(1), Duration.ofSeconds(9), 0, 4);
    Actor<String> actor =
        Actor.builder("resize", PayloadCodec.rawJson(), NOTHING)
            .queue("images")
            .retryPolicy(policy)
            .build();
    assertThat(actor.queue()).isEqualTo("images");
    assertThat(actor.retryPolicy()).contains(policy);
  }

  @Test
  @Tag("F6")
  void badNames_areRefusedNamingTheProblem() {
    assertThatThrownBy(() -> Actor.rawJson("", NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("actor name '' must be 1 to 128 characters long, was 0");
    assertThatThrownBy(() -> Actor.rawJson("a\0b", NOTHING))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "actor name 'a\\u0000b' must not contain control character U+0000 (at index 1)");
    assertThatThrownBy(() -> Actor.rawJson(" padded", NOTHING))
        .hasMessage("actor name ' padded' must not start or end with white space");
    assertThatThrownBy(() -> Actor.rawJson("x".repeat(129), NOTHING))
        .hasMessageContaining("must be 1 to 128 characters long, was 129");
    assertThatThrownBy(() -> Actor.builder("ok", PayloadCodec.rawJson(), NOTHING).queue("q\u0007x"))
        .hasMessage("queue 'q\\u0007x' must not contain control character U+0007 (at index 1)");
  }

  @Test
  @Tag("M5")
  void rateLimit_namesTheLimit_orOneLimitPerKeyDerivedFromThePayload() {
    SlidingWindowLog limit = SlidingWindowLog.of(10, Duration.ofMinutes(1));
    Actor<String> plain =
        Actor.builder("call-partner", PayloadCodec.rawJson(), NOTHING)
            .rateLimit("partner-api", limit)
            .build();
    Actor<String> keyed =
        Actor.builder("sync", PayloadCodec.rawJson(), NOTHING)
            .rateLimit("per-customer", limit, payload -> payload.substring(0, 3))
            .build();

    assertThat(Actor.rawJson("free", NOTHING).rateLimit()).isEmpty();
    assertThat(plain.rateLimit()).contains(new Actor.ActorRateLimit("partner-api", limit, false));
    assertThat(plain.rateLimitName("{}")).isEqualTo("partner-api");
    assertThat(keyed.rateLimit().orElseThrow().keyed()).isTrue();
    assertThat(keyed.rateLimitName("c42-order")).isEqualTo("per-customer:c42");
    assertThatThrownBy(() -> Actor.rawJson("free", NOTHING).rateLimitName("{}"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("declares no rate limit");
  }

  @Test
  @Tag("F6")
  @Tag("M7")
  void rateLimit_badNamesAndKeys_areRefused() {
    SlidingWindowLog limit = SlidingWindowLog.of(10, Duration.ofMinutes(1));
    Actor.Builder<String> builder = Actor.builder("sync", PayloadCodec.rawJson(), NOTHING);

    assertThatThrownBy(() -> builder.rateLimit("", limit))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be empty");
    assertThatThrownBy(() -> builder.rateLimit("a\u0000b", limit))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> builder.rateLimit("taskq:global:queue:x", limit))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("process-local");
    Actor<String> emptyKey = builder.rateLimit("per-customer", limit, payload -> "").build();
    assertThatThrownBy(() -> emptyKey.rateLimitName("{}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty rate limit key");
  }
}
