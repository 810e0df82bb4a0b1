package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.cause;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Runs the sample classes of {@link HarnessSamples} through the JUnit engine and checks what the
 * harness left behind: nothing.
 */
@TaskQTest
@Tag("Q3")
class HarnessLifecycleTest {
  private static RedisClient redisClient;
  private static StatefulRedisConnection<String, String> redis;

  @BeforeAll
  static void connect(TestServices services) {
    redisClient = RedisClient.create(services.redisUri());
    redis = redisClient.connect();
  }

  @AfterAll
  static void disconnect() {
    redis.close();
    redisClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }

  @BeforeEach
  void forgetEarlierSamples() {
    HarnessSamples.reset();
  }

  @Test
  void finishedClass_hasItsSchemaDroppedAndItsRedisKeysDeleted(TestServices own)
      throws SQLException {
    run(HarnessSamples.RecordsItsServices.class).testEvents().assertStatistics(s -> s.succeeded(2));

    assertThat(HarnessSamples.seen).hasSize(2);
    TestServices sample = HarnessSamples.seen.peek();
    assertThat(HarnessSamples.seen).allSatisfy(s -> assertThat(s).isSameAs(sample));
    assertGone(own, sample);
  }

  @Test
  void everyClass_getsItsOwnSchemaAndPrefix(TestServices own) throws SQLException {
    run(HarnessSamples.RecordsItsServices.class).testEvents().assertStatistics(s -> s.succeeded(2));
    run(HarnessSamples.AlsoRecordsItsServices.class)
        .testEvents()
        .assertStatistics(s -> s.succeeded(1));

    Set<String> schemas =
        HarnessSamples.seen.stream().map(TestServices::schema).collect(Collectors.toSet());
    Set<String> prefixes =
        HarnessSamples.seen.stream().map(TestServices::redisPrefix).collect(Collectors.toSet());
    assertThat(schemas).hasSize(2).doesNotContain(own.schema());
    assertThat(prefixes).hasSize(2).doesNotContain(own.redisPrefix());
    for (TestServices sample : HarnessSamples.seen) {
      assertGone(own, sample);
    }
  }

  @Test
  void failedClass_isCleanedUpAllTheSame(TestServices own) throws SQLException {
    run(HarnessSamples.FailsAfterTouching.class)
        .testEvents()
        .assertStatistics(s -> s.failed(1).succeeded(0));

    assertThat(HarnessSamples.seen).hasSize(1);
    assertGone(own, HarnessSamples.seen.peek());
  }

  @Test
  void nestedClass_sharesTheEnclosingClassServices(TestServices own) throws SQLException {
    run(HarnessSamples.HasNestedClass.class).testEvents().assertStatistics(s -> s.succeeded(2));

    assertThat(HarnessSamples.seen).hasSize(2);
    List<TestServices> seen = List.copyOf(HarnessSamples.seen);
    assertThat(seen.get(1)).isSameAs(seen.get(0));
    assertGone(own, seen.get(0));
  }

  @Test
  void pooledConnectionLeftInATransaction_doesNotKeepTheSchemaAlive(TestServices own)
      throws SQLException {
    EngineExecutionResults results = run(HarnessSamples.LeavesPooledConnectionInTransaction.class);

    results.testEvents().assertStatistics(s -> s.succeeded(1));
    results.containerEvents().assertStatistics(s -> s.failed(0));
    assertGone(own, HarnessSamples.seen.peek());
  }

  @Test
  void ownConnectionHoldingLocks_failsTheClassLoudlyInsteadOfHanging(TestServices own)
      throws SQLException {
    EngineExecutionResults results = run(HarnessSamples.HoldsItsOwnConnectionInTransaction.class);

    results
        .containerEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                cause(
                    message(
                        m ->
                            m.contains("could not drop test schema")
                                && m.contains("holds locks")))));
    TestServices sample = HarnessSamples.seen.peek();
    assertThat(schemaExists(own, sample.schema())).isTrue();
    for (Connection c; (c = HarnessSamples.leftOpen.poll()) != null; ) {
      c.close();
    }
    try (Connection c = own.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA " + SchemaName.of(sample.schema()).quoted() + " CASCADE");
    }
    assertGone(own, sample);
  }

  @Test
  void poolSizeAttribute_sizesTheClassPool(TestServices own) throws SQLException {
    run(HarnessSamples.AsksForASmallerPool.class)
        .testEvents()
        .assertStatistics(s -> s.succeeded(1));

    TestServices sample = HarnessSamples.seen.peek();
    HikariDataSource pool = (HikariDataSource) sample.dataSource();
    assertThat(pool.getMaximumPoolSize()).isEqualTo(2);
    assertThat(pool.isClosed()).isTrue();
    assertGone(own, sample);
  }

  @Test
  void poolSizeOutOfRange_failsTheClassNamingTheAttributeAndTheRange() {
    EngineExecutionResults results = run(HarnessSamples.AsksForAnEmptyPool.class);

    results
        .containerEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            container(
                finishedWithFailure(
                    message(m -> m.contains("poolSize = 0") && m.contains("1..50")))));
    assertThat(HarnessSamples.seen).isEmpty();
  }

  private static EngineExecutionResults run(Class<?> sample) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(sample)).execute();
  }

  private static void assertGone(TestServices own, TestServices sample) throws SQLException {
    assertThat(schemaExists(own, sample.schema())).as("schema %s", sample.schema()).isFalse();
    assertThat(redis.sync().keys(RedisKeySpace.globEscape(sample.redisPrefix()) + "*"))
        .as("Redis keys under %s", sample.redisPrefix())
        .isEmpty();
  }

  private static boolean schemaExists(TestServices own, String schema) throws SQLException {
    try (Connection c = own.dataSource().getConnection();
        PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
      s.setString(1, schema);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    }
  }
}
