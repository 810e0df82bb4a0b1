package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels.Channel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("M2")
class NotifyChannelsTest {
  private static final NotifyChannels TASKQ = NotifyChannels.of(SchemaName.of("taskq"));

  @Test
  void schemaTaskqWakesOnTheChannelTheGuideNames() {
    assertThat(TASKQ.tag()).isEqualTo("124a200651");
    assertThat(TASKQ.wake().name()).isEqualTo("taskq_wake_124a200651");
    assertThat(TASKQ.events().name()).isEqualTo("taskq_events_124a200651");
    assertThat(TASKQ.worker("w1").name()).isEqualTo("taskq_worker_124a200651_w1");
  }

  @ParameterizedTest
  @CsvSource({
    "taskq_staging, 96493a612b",
    "My-Schema,     367ccf3a3b",
    "Schéma 東京,    411857c363",
    "global,        fecb931bc0"
  })
  void theTagIsTheFirstTenHexDigitsOfSha224OfTheSchema(String schema, String tag) {
    assertThat(NotifyChannels.tagOf(SchemaName.of(schema))).isEqualTo(tag);
    assertThat(NotifyChannels.of(SchemaName.of(schema)).wake().name())
        .isEqualTo("taskq_wake_" + tag);
  }

  @Test
  void twoSchemasNeverShareAChannel() {
    NotifyChannels staging = NotifyChannels.of(SchemaName.of("taskq_staging"));
    assertThat(staging.wake()).isNotEqualTo(TASKQ.wake());
    assertThat(staging.events()).isNotEqualTo(TASKQ.events());
    assertThat(staging.worker("w1")).isNotEqualTo(TASKQ.worker("w1"));
  }

  @Test
  void aSixtyThreeByteSchemaStillGivesShortChannels() {
    NotifyChannels longest = NotifyChannels.of(SchemaName.of("東".repeat(21)));
    assertThat(longest.wake().name()).hasSize("taskq_wake_".length() + 10);
    assertThat(longest.events().name()).hasSize("taskq_events_".length() + 10);
  }

  @Test
  void theLongestWorkerIdMakesAChannelOfExactlySixtyThreeBytes() {
    assertThat(NotifyChannels.MAX_WORKER_ID_LENGTH)
        .isEqualTo(NotifyChannels.MAX_CHANNEL_BYTES - "taskq_worker_".length() - 10 - 1)
        .isEqualTo(39);
    String id = "w".repeat(NotifyChannels.MAX_WORKER_ID_LENGTH);
    assertThat(TASKQ.worker(id).name().getBytes(StandardCharsets.UTF_8)).hasSize(63);
  }

  @Test
  void aUuidWithoutHyphensIsAValidWorkerId() {
    String id = "3f2b8c1e9a7d4e6f8b0c1d2e3f4a5b6c";
    assertThat(TASKQ.worker(id).name()).endsWith("_" + id);
  }

  @Test
  void aWorkerIdOneCharTooLongIsRejectedNamingTheLimit() {
    assertThatThrownBy(() -> TASKQ.worker("w".repeat(40)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "invalid worker id '"
                + "w".repeat(40)
                + "': a worker id names a NOTIFY channel, so it must be 1 to 39 characters of"
                + " [a-z0-9_] (was 40 characters)");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "Worker1", "3f2b8c1e-9a7d-4e6f-8b0c-1d2e3f4a5b6c", "w 1", "wörker", "w\0"})
  void workerIdsOutsideLowerCaseLettersDigitsAndUnderscoreAreRejected(String id) {
    assertThatThrownBy(() -> NotifyChannels.requireWorkerId(id))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid worker id")
        .hasMessageContaining("[a-z0-9_]")
        .hasMessageNotContaining("\0");
  }

  @Test
  void quoted_givesTheDoubleQuotedIdentifier() {
    assertThat(TASKQ.wake().quoted()).isEqualTo("\"taskq_wake_124a200651\"");
    assertThat(TASKQ.wake()).hasToString("taskq_wake_124a200651");
  }

  @Test
  void channelsOnlyEverHoldCharactersThatReadTheSameUnquoted() {
    assertThat(TASKQ.worker("a_1").name()).matches("[a-z][a-z0-9_]*");
    assertThat(TASKQ.events().name()).matches("[a-z][a-z0-9_]*");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Taskq_wake", "1abc", "taskq-wake", "taskq_wake_\0"})
  void aChannelRejectsNamesThatAreNotPlainLowerCaseIdentifiers(String name) {
    assertThatThrownBy(() -> new Channel(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid channel name");
  }

  @Test
  void aChannelRejectsNamesLongerThanSixtyThreeBytes() {
    assertThat(new Channel("c".repeat(63)).name()).hasSize(63);
    assertThatThrownBy(() -> new Channel("c".repeat(64)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 63 characters");
  }
}
