package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.core.SchemaName;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClassResourcesTest {
  private static final TestServers UNUSED =
      new TestServers("jdbc:postgresql://127.0.0.1:1/unused", "redis://127.0.0.1:1");

  @Test
  void schemaFor_foldsTheClassNameAndAppendsRandomHex() {
    assertThat(ClassResources.schemaFor("Leader$Election_Test2"))
        .matches("t_leaderelectiontest2_[0-9a-f]{10}");
  }

  @Test
  void schemaFor_keepsLongNamesWithinPostgresLimit() {
    String schema = ClassResources.schemaFor("X".repeat(200));

    assertThat(schema).hasSizeLessThanOrEqualTo(SchemaName.MAX_BYTES);
    assertThat(SchemaName.problem(schema)).isNull();
  }

  @Test
  void schemaFor_neverRepeatsItself() {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      names.add(ClassResources.schemaFor("Same"));
    }
    assertThat(names).hasSize(10_000);
  }

  @Test
  void open_rejectsAPoolSizeOutOfRange_beforeTouchingAnyServer() {
    assertThatThrownBy(() -> ClassResources.open(UNUSED, "SomeTest", 51))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("@TaskQTest(poolSize = 51) on SomeTest: must be within 1..50");
  }
}
