package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * NUL in text a handler produced (F6) is stored as the visible {@code \x00}, never refused by the
 * database, and the job still reaches its terminal state.
 */
@TaskQTest
@Tag("F6")
@Tag("L5")
class NulSanitisingTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void nulInTheExceptionMessage_isStoredEscapedAndTheJobFails(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy twice =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(10), Duration.ofMillis(10), 0, 2);
    long id = db.enqueueOne("nul-thrower", twice);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "nul-thrower",
              (json, ctx) -> {
                throw new IllegalArgumentException("bad\0byte", new RuntimeException("cause\0"));
              }));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("failed"));
    }
    assertThat(db.job(id).get("error_message")).isEqualTo("bad\\x00byte");
    assertThat(String.valueOf(db.job(id).get("error_stack")))
        .startsWith("java.lang.IllegalArgumentException: bad\\x00byte")
        .contains("Caused by: java.lang.RuntimeException: cause\\x00")
        .doesNotContain("\0");
    assertThat(db.attempts(id))
        .hasSize(2)
        .allSatisfy(a -> assertThat(a.get("error_message")).isEqualTo("bad\\x00byte"));
    assertThat(db.events(id)).extracting(e -> e.get("error_message")).containsOnly("bad\\x00byte");
  }

  @Test
  void nulInTheResult_isStoredEscapedAndTheJobSucceeds(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("nul-result", RetryPolicy.defaults().withMaxAttempts(1));
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson("nul-result", (json, ctx) -> "{\"a\": \"x\\u0000y\", \"b\": \"raw\0\"}"));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
    }
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT count(*) FROM {schema}.jobs WHERE id = ? AND"
                        + " result->>'a' = 'x\\x00y' AND result->>'b' = 'raw\\x00'"),
                id))
        .isEqualTo(1);
  }
}
