package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName.Purpose;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The lock names and their keys are a compatibility contract: the regression vectors below were
 * computed once (SHA-256, first 8 bytes, big-endian, signed) and checked against the documented SQL
 * expression on PostgreSQL 15; they must never change. The SQL side is pinned against a live server
 * in taskq-postgres.
 */
@Tag("M1")
@Tag("M4")
class AdvisoryLockNameTest {
  private static final SchemaName TASKQ = SchemaName.of("taskq");

  @ParameterizedTest
  @CsvSource({
    "MAINTENANCE_LEADER, taskq:maintenance_leader:taskq, -8549638002805341784",
    "CRON,               taskq:cron:taskq,               -1455629996602759779",
    "PRUNE,              taskq:prune:taskq,              -1184566232285338239",
    "ARCHIVE_EXPIRY,     taskq:archive_expiry:taskq,     -5633824221694416006",
    "MIGRATE,            taskq:migrate:taskq,            -3647948443456259706"
  })
  void purposeLocks_areNamedPurposeThenSchemaWithPinnedKeys(
      Purpose purpose, String name, long key) {
    AdvisoryLockName lock = AdvisoryLockName.of(purpose, TASKQ);
    assertThat(lock.name()).isEqualTo(name);
    assertThat(lock.key()).isEqualTo(key);
  }

  @Test
  void anotherSchemaGetsItsOwnLeaderLock() {
    AdvisoryLockName staging =
        AdvisoryLockName.of(Purpose.MAINTENANCE_LEADER, SchemaName.of("taskq_staging"));
    assertThat(staging.name()).isEqualTo("taskq:maintenance_leader:taskq_staging");
    assertThat(staging.key()).isEqualTo(2693271450994656715L);
    assertThat(staging.key())
        .isNotEqualTo(AdvisoryLockName.of(Purpose.MAINTENANCE_LEADER, TASKQ).key());
  }

  @Test
  void theSchemaAppearsUnquotedAndKeysHashItsUtf8Bytes() {
    AdvisoryLockName lock = AdvisoryLockName.of(Purpose.CRON, SchemaName.of("Schéma 東京"));
    assertThat(lock.name()).isEqualTo("taskq:cron:Schéma 東京");
    assertThat(lock.key()).isEqualTo(-1455746310848991026L);
    assertThat(AdvisoryLockName.of(Purpose.CRON, SchemaName.of("My-Schema")).name())
        .isEqualTo("taskq:cron:My-Schema");
  }

  @Test
  void slidingWindowLock_sharesItsNameWithTheRedisKey() {
    AdvisoryLockName lock = AdvisoryLockName.slidingWindow(TASKQ, "api");
    assertThat(lock.name()).isEqualTo("taskq:taskq:sw:api");
    assertThat(lock.name()).isEqualTo(RedisKeys.of(TASKQ).slidingWindow("api"));
    assertThat(lock.key()).isEqualTo(2163457334016377148L);
  }

  @Test
  void uniqueForLock_isNamedBySchemaActorAndIdentityKey() {
    AdvisoryLockName lock = AdvisoryLockName.uniqueFor(TASKQ, "send_email", "user-42");
    assertThat(lock.name()).isEqualTo("taskq:unique_for:taskq:send_email:user-42");
    assertThat(lock.key()).isEqualTo(-9179419550366893119L);
  }

  @Test
  void uniqueForLock_acceptsAnEmptyIdentityKey() {
    assertThat(AdvisoryLockName.uniqueFor(TASKQ, "a", "").name())
        .isEqualTo("taskq:unique_for:taskq:a:");
  }

  @Test
  void keyOf_isTheFirstEightBytesOfSha256BigEndianSigned() {
    // sha256("abc") = ba7816bf8f01cfea 414140de5dae2223 ...
    assertThat(AdvisoryLockName.keyOf("abc")).isEqualTo(0xba7816bf8f01cfeaL);
    assertThat(AdvisoryLockName.keyOf("abc")).isNegative();
    AdvisoryLockName lock = AdvisoryLockName.of(Purpose.PRUNE, TASKQ);
    assertThat(lock.key()).isEqualTo(AdvisoryLockName.keyOf(lock.name()));
  }

  @Test
  void sqlKeyExpression_isTheDocumentedTwinOfKeyOf() {
    assertThat(String.format(AdvisoryLockName.SQL_KEY_EXPRESSION, "?"))
        .isEqualTo(
            "('x' || substr(encode(sha256(convert_to(?, 'UTF8')), 'hex'), 1, 16))::bit(64)::bigint");
  }

  @Test
  void everyLockOfOneSchemaHasADistinctKey() {
    Set<Long> keys = new HashSet<>();
    for (Purpose purpose : Purpose.values()) {
      keys.add(AdvisoryLockName.of(purpose, TASKQ).key());
    }
    keys.add(AdvisoryLockName.slidingWindow(TASKQ, "api").key());
    keys.add(AdvisoryLockName.uniqueFor(TASKQ, "send_email", "user-42").key());
    assertThat(keys).hasSize(Purpose.values().length + 2);
  }

  @Test
  void purposeValues_areTheLowerCaseNames() {
    assertThat(Stream.of(Purpose.values()).map(Purpose::value))
        .containsExactly("maintenance_leader", "cron", "prune", "archive_expiry", "migrate");
  }

  @Test
  @Tag("F6")
  void keyedNamesWithANulAreRejectedNamingTheValue() {
    assertThatThrownBy(() -> AdvisoryLockName.slidingWindow(TASKQ, "ap\0i"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "sliding window name contains a NUL character (U+0000) at index 2; PostgreSQL text"
                + " cannot store it");
    assertThatThrownBy(() -> AdvisoryLockName.uniqueFor(TASKQ, "\0", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unique_for actor contains a NUL character (U+0000) at index 0");
    assertThatThrownBy(() -> AdvisoryLockName.uniqueFor(TASKQ, "a", "key\0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "unique_for identity key contains a NUL character (U+0000) at index 3");
  }

  @Test
  void emptyKeyedNamesAreRejected() {
    assertThatThrownBy(() -> AdvisoryLockName.slidingWindow(TASKQ, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sliding window name must not be empty");
    assertThatThrownBy(() -> AdvisoryLockName.uniqueFor(TASKQ, "", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unique_for actor must not be empty");
  }

  @Test
  void locksAreEqualByNameAndPrintTheirKey() {
    AdvisoryLockName lock = AdvisoryLockName.of(Purpose.CRON, TASKQ);
    assertThat(lock)
        .isEqualTo(AdvisoryLockName.of(Purpose.CRON, TASKQ))
        .hasSameHashCodeAs(AdvisoryLockName.of(Purpose.CRON, TASKQ))
        .isNotEqualTo(AdvisoryLockName.of(Purpose.PRUNE, TASKQ))
        .isNotEqualTo("taskq:cron:taskq");
    assertThat(lock).hasToString("taskq:cron:taskq (key -1455629996602759779)");
  }
}
