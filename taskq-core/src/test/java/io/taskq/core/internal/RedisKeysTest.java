package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName.Purpose;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("M5")
class RedisKeysTest {
  private static final RedisKeys TASKQ = RedisKeys.of(SchemaName.of("taskq"));

  @Test
  void keysCarryTheSchemaAsAPlainPlaceholder() {
    assertThat(TASKQ.tokenBucket("api")).isEqualTo("taskq:taskq:rl:tb:api");
    assertThat(TASKQ.slidingWindow("api")).isEqualTo("taskq:taskq:sw:api");
    assertThat(TASKQ.gcra("api")).isEqualTo("taskq:taskq:sw_gcra:api");
    assertThat(TASKQ.progress(42)).isEqualTo("taskq:taskq:progress:42");
    assertThat(TASKQ.progressChannel()).isEqualTo("taskq:taskq:progress");
    assertThat(TASKQ.schema()).isEqualTo(SchemaName.of("taskq"));
  }

  @Test
  void theSchemaIsUsedAsGivenNotQuoted() {
    RedisKeys keys = RedisKeys.of(SchemaName.of("My-Schema"));
    assertThat(keys.tokenBucket("a b")).isEqualTo("taskq:My-Schema:rl:tb:a b");
    assertThat(keys).hasToString("RedisKeys{taskq:My-Schema:}");
  }

  @Test
  @Tag("M6")
  void twoSchemasShareNoKeyOrChannel() {
    RedisKeys staging = RedisKeys.of(SchemaName.of("taskq_staging"));
    assertThat(allKeys(staging, "api")).doesNotContainAnyElementsOf(allKeys(TASKQ, "api"));
  }

  @Test
  @Tag("F6")
  void namesMustBeNonEmptyAndFreeOfNul() {
    assertThatThrownBy(() -> TASKQ.tokenBucket(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("token bucket name must not be empty");
    assertThatThrownBy(() -> TASKQ.gcra("x\0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("GCRA limit name contains a NUL character (U+0000) at index 1");
    assertThatThrownBy(() -> TASKQ.slidingWindow("\0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sliding window name contains a NUL");
  }

  @Test
  @Tag("M7")
  void processLocalQueueCapsLiveUnderTheGlobalQueuePrefix() {
    String name = RedisKeys.processLocalQueueCap("default");
    assertThat(name).isEqualTo("taskq:global:queue:default");
    assertThat(RedisKeys.isProcessLocal(name)).isTrue();
    assertThat(RedisKeys.isProcessLocal("taskq:taskq:rl:tb:api")).isFalse();
    assertThatThrownBy(() -> RedisKeys.processLocalQueueCap(""))
        .hasMessage("queue name must not be empty");
  }

  @Test
  @Tag("M7")
  void requireStoreBound_refusesAProcessLocalNameAtTheStoreBoundary() {
    assertThat(RedisKeys.requireStoreBound("taskq:taskq:rl:tb:api"))
        .isEqualTo("taskq:taskq:rl:tb:api");
    assertThatThrownBy(() -> RedisKeys.requireStoreBound("taskq:global:queue:default"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "'taskq:global:queue:default' is a process-local queue-cap reservation name (prefix"
                + " taskq:global:queue:); it must never reach PostgreSQL or Redis (M7)");
  }

  @Test
  @Tag("M7")
  void aSchemaNamedGlobalStillNeverSpellsTheProcessLocalPrefix() {
    SchemaName global = SchemaName.of("global");
    List<String> names = allKeys(RedisKeys.of(global), "queue");
    names.addAll(allLocks(global, "queue"));
    names.addAll(allKeys(RedisKeys.of(global), "queue:x"));
    names.addAll(allLocks(global, "queue:x"));
    assertThat(names).isNotEmpty().noneMatch(RedisKeys::isProcessLocal);
    assertThat(names).contains("taskq:global:sw:queue", "taskq:global:rl:tb:queue");
  }

  @Test
  @Tag("M7")
  void theOnlySchemaThatCouldSpellThePrefixIsRejected() {
    assertThat(SchemaName.problem("global:queue")).contains("colon");
  }

  static List<String> allKeys(RedisKeys keys, String name) {
    List<String> out = new ArrayList<>();
    out.add(keys.tokenBucket(name));
    out.add(keys.slidingWindow(name));
    out.add(keys.gcra(name));
    out.add(keys.progress(7));
    out.add(keys.progressChannel());
    return out;
  }

  static List<String> allLocks(SchemaName schema, String name) {
    List<String> out = new ArrayList<>();
    for (Purpose purpose : Purpose.values()) {
      out.add(AdvisoryLockName.of(purpose, schema).name());
    }
    out.add(AdvisoryLockName.slidingWindow(schema, name).name());
    out.add(AdvisoryLockName.uniqueFor(schema, name, name).name());
    out.add(AdvisoryLockName.uniqueFor(schema, "global", "queue:" + name).name());
    return out;
  }
}
