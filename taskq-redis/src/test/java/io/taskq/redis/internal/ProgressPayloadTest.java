package io.taskq.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.core.internal.JsonStrings;
import io.taskq.progress.Progress;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The channel payload and the stored hash both come back as the report that was made. */
class ProgressPayloadTest {
  private static String payload(String messageJson, String detail) {
    return "{\"job_id\":42,\"fraction\":0.5,\"reported_at_us\":1700000000123456,\"message\":"
        + messageJson
        + ",\"detail\":"
        + detail
        + "}";
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "plain",
        "",
        "quote \" backslash \\ slash /",
        "tab\tnewline\ncr\r",
        "bell\u0007 unit\u001f",
        "é 😀 \u2028"
      })
  void messagesOfEveryShape_surviveTheRoundTrip(String message) {
    Progress decoded = ProgressPayload.decode(payload(JsonStrings.of(message), "null"));

    assertThat(decoded)
        .isEqualTo(
            new Progress(42, 0.5, message, null, Instant.parse("2023-11-14T22:13:20.123456Z")));
  }

  @Test
  void detail_isKeptVerbatim() {
    String detail = "{\"a\":[1,2,{\"b\":\"}\"}],\"c\":null}";

    Progress decoded = ProgressPayload.decode(payload("\"m\"", detail));

    assertThat(decoded.detailJson()).isEqualTo(detail);
  }

  @Test
  void unicodeEscapes_areDecoded() {
    Progress decoded =
        ProgressPayload.decode(payload("\"\\u00e9\\ud83d\\ude00\\/\\b\\f\"", "null"));

    assertThat(decoded.message()).isEqualTo("é😀/\b\f");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "hello",
        "{\"not\":\"ours\"}",
        "{\"job_id\":x,\"fraction\":0.5,\"reported_at_us\":1,\"message\":\"m\",\"detail\":null}",
        "{\"job_id\":1,\"fraction\":2.5,\"reported_at_us\":1,\"message\":\"m\",\"detail\":null}",
        "{\"job_id\":1,\"fraction\":0.5,\"reported_at_us\":1,\"message\":\"m\\q\",\"detail\":null}",
        "{\"job_id\":1,\"fraction\":0.5,\"reported_at_us\":1,\"message\":\"m\",\"detail\":nul"
      })
  void foreignOrBrokenPayloads_decodeToNull(String payload) {
    assertThat(ProgressPayload.decode(payload)).isNull();
  }

  @Test
  void storedHash_becomesTheReport_andAnEmptyHashNothing() {
    Map<String, String> hash =
        Map.of(
            "fraction", "1.0E-4",
            "message", "tiny",
            "detail", "[1]",
            "reported_at_us", "1000001");

    assertThat(ProgressPayload.fromHash(5, hash))
        .isEqualTo(new Progress(5, 1.0E-4, "tiny", "[1]", Instant.ofEpochSecond(1, 1000)));
    assertThat(ProgressPayload.fromHash(5, Map.of())).isNull();
  }
}
