package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import java.sql.Connection;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class ClassResourcesTest {
  private static final Supplier<String> NO_REDIS = ClassResourcesTest::noRedis;

  private static String noRedis() {
    throw new AssertionError("Redis was looked for by a class that never asked for it");
  }

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

  @Test
  @Tag("P5")
  void schemaFor_startsWithTheChosenPrefix() {
    assertThat(ClassResources.schemaFor("shop", "OrderServiceTest"))
        .matches("shop_orderservicetest_[0-9a-f]{10}");
  }

  @Test
  @Tag("P5")
  void open_rejectsABadSchemaPrefix_namingTheRule() {
    for (String bad : new String[] {"", "Shop", "1shop", "shop-x", "a".repeat(17)}) {
      assertThatThrownBy(() -> ClassResources.open(UNUSED.jdbcUrl(), NO_REDIS, "SomeTest", bad, 2))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "@TaskQTest(schemaPrefix = \""
                  + bad
                  + "\") on SomeTest: must be 1 to 16 lower-case letters, digits or underscores,"
                  + " starting with a letter");
    }
  }

  @Test
  @Tag("P5")
  void aClassThatNeverAsksForRedis_neverLooksForIt_andCleansUpWithoutIt() throws Exception {
    ClassResources resources =
        ClassResources.open(TestServers.findPostgres(), NO_REDIS, "NoRedisTest", "shop", 2);
    try (Connection c = resources.services.dataSource().getConnection()) {
      assertThat(c.isValid(5)).isTrue();
    }
    assertThat(resources.services.schema()).startsWith("shop_noredistest_");
    assertThat(resources.services.redisPrefix())
        .isEqualTo("taskq:" + resources.services.schema() + ":");
    resources.close();
  }

  @Test
  @Tag("P5")
  void aClassThatAsksForRedis_withNoneToBeFound_failsThenWithTheDiscoveryMessage()
      throws Exception {
    try (ClassResources resources =
        ClassResources.open(
            TestServers.findPostgres(),
            () -> {
              throw new IllegalStateException("Redis is missing: nothing answers");
            },
            "WantsRedisTest",
            "t",
            2)) {
      assertThatThrownBy(resources.services::redisUri)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Redis is missing: nothing answers");
    }
  }
}
