package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R3 (F6): a payload with an unpaired surrogate, escaped ({@code "\ud800"}) or raw, cannot be
 * stored by {@code jsonb}; it is refused at enqueue with an {@link IllegalArgumentException} naming
 * the problem, and no SQL runs. A surrogate pair, escaped or raw, is a character like any other.
 */
@TaskQTest
@Tag("R3")
@Tag("F6")
class SurrogatePayloadTest {
  private static JobsClient client;
  private static Db db;
  private static SchemaName schema;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
    schema = SchemaName.of(services.schema());
    client = JobsClient.create(services.dataSource(), schema);
    db = new Db(services.dataSource());
  }

  private static long jobs() {
    return db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs");
  }

  @Test
  void escapedUnpairedSurrogates_areRefusedBeforeAnySql() {
    long before = jobs();
    for (String payload :
        new String[] {
          "\"\\ud800\"", "\"\\udc00x\"", "{\"k\": \"\\uDBFF\\u0041\"}", "[\"\\ud800\\ud800\"]"
        }) {
      assertThatThrownBy(() -> client.enqueue(JobRequest.of("a", payload)))
          .as(payload)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("payload is not valid JSON")
          .hasMessageContaining("unpaired surrogate");
    }
    assertThat(jobs()).isEqualTo(before);
  }

  @Test
  void rawUnpairedSurrogates_areRefusedBeforeAnySql() {
    long before = jobs();
    for (String payload : new String[] {"\"\ud800\"", "\"a\udc00\"", "{\"\ud83d\": 1}"}) {
      assertThatThrownBy(() -> client.enqueue(JobRequest.of("a", payload)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("payload is not valid JSON")
          .hasMessageContaining("unpaired surrogate");
    }
    assertThat(jobs()).isEqualTo(before);
  }

  @Test
  void surrogatePairs_areStoredAndReadBack() {
    long escaped = client.enqueue(JobRequest.of("a", "\"\\ud83d\\ude00\""));
    long raw = client.enqueue(JobRequest.of("a", "\"\ud83d\ude00\""));

    assertThat(client.find(escaped).orElseThrow().payloadJson()).isEqualTo("\"😀\"");
    assertThat(client.find(raw).orElseThrow().payloadJson()).isEqualTo("\"😀\"");
  }
}
