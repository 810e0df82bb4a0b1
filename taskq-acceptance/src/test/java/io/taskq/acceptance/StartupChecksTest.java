package io.taskq.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * P3: each start-up check, through {@code TaskQ.start()} on the real database: the exception (or
 * WARN) names the setting and the numbers, and a refused start leaves nothing behind.
 */
@Tag("P3")
@TaskQTest(poolSize = 8)
class StartupChecksTest {
  private static final String POOL_BUDGET = "io.taskq.postgres.internal.startup.PoolBudget";

  private final TestServices services;
  private CapturedLogs logs;

  StartupChecksTest(TestServices services) {
    this.services = services;
  }

  @BeforeEach
  void capture() {
    logs = new CapturedLogs();
  }

  @AfterEach
  void release() {
    logs.close();
  }

  private TaskQConfig.Builder settings() {
    return TaskQConfig.builder(Map.of()).schemaName(services.schema());
  }

  private static Actor<String> noop() {
    return Actor.rawJson("noop", (json, ctx) -> null);
  }

  @Test
  void unreachableDatabase_namesTaskqDatabaseUrlAndWhereItPoints_neverThePassword() {
    TaskQConfig config =
        settings()
            .databaseUrl("jdbc:postgresql://127.0.0.1:1/orders?user=app&password=s3cret")
            .connectTimeout(Duration.ofSeconds(1))
            .build();
    try (TaskQ taskq = TaskQ.builder().config(config).build()) {
      taskq.register(noop());

      assertThatThrownBy(taskq::start)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("cannot connect to the database in TASKQ_DATABASE_URL")
          .hasMessageContaining("database orders on 127.0.0.1:1")
          .hasMessageContaining("SQLSTATE 08001")
          .message()
          .doesNotContain("s3cret");
    }
  }

  @Test
  void applicationPoolOfTwo_withMaintenance_isRefusedNamingBothNumbersAndTheWayOut()
      throws Exception {
    try (HikariDataSource two = pool(2);
        TaskQ taskq = TaskQ.builder(two).config(settings().build()).build()) {
      taskq.register(noop());

      assertThatThrownBy(taskq::start)
          .isInstanceOf(TaskQConfigException.class)
          .hasMessageContaining("a pool of at most 2 connections and TaskQ holds 2 of them")
          .hasMessageContaining("give the pool at least 8 connections (2 held + 6 for the loops)")
          .hasMessageContaining("TASKQ_DATABASE_DIRECT_URL");
      assertThat(((TaskQConfigException) catchStart(taskq)).problems())
          .singleElement()
          .satisfies(p -> assertThat(p.variables()).containsExactly("TASKQ_DATABASE_DIRECT_URL"));
      assertThat(workerRows()).as("a refused start registers no worker").isZero();
    }
  }

  @Test
  void applicationPoolOfOne_withoutMaintenance_isRefused_onlyTheListenerIsHeld() {
    try (HikariDataSource one = pool(1);
        TaskQ taskq = TaskQ.builder(one).config(settings().build()).maintenance(false).build()) {
      taskq.register(noop());

      assertThatThrownBy(taskq::start)
          .isInstanceOf(TaskQConfigException.class)
          .hasMessageContaining("a pool of at most 1 connections and TaskQ holds 1 of them")
          .hasMessageContaining("(the LISTEN connection)")
          .hasMessageContaining("at least 4 connections (1 held + 3 for the loops)");
    }
  }

  @Test
  void applicationPoolBelowWhatTaskqCanUse_startsWithOneWarnNamingTheNumbers() throws Exception {
    try (HikariDataSource four = pool(4);
        TaskQ taskq = TaskQ.builder(four).config(settings().build()).build()) {
      taskq.register(noop());
      taskq.start();

      assertThat(logs.of(POOL_BUDGET))
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage())
                    .contains(
                        "the application's DataSource is a pool of at most 4 connections,",
                        "below the 8 TaskQ can use at once",
                        "2 held for good",
                        "6 for its claim, complete, heartbeat, two maintenance, cron loops",
                        "at least 8 plus what the application uses");
              });
    }
  }

  @Test
  void ownedPoolBelowWhatTaskqCanUse_warnsNamingTaskqDatabasePoolSize() throws Exception {
    TaskQConfig config = settings().databaseUrl(services.jdbcUrl()).databasePoolSize(3).build();
    try (TaskQ taskq = TaskQ.builder().config(config).build()) {
      taskq.register(noop());
      taskq.start();

      assertThat(logs.of(POOL_BUDGET))
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage())
                    .startsWith("TASKQ_DATABASE_POOL_SIZE=3 is below the 6 TaskQ can use at once")
                    .contains("Give it at least 6");
              });
    }
  }

  @Test
  void largeEnoughPools_passInSilence() throws Exception {
    TaskQConfig owned = settings().databaseUrl(services.jdbcUrl()).databasePoolSize(5).build();
    try (HikariDataSource eight = pool(8);
        TaskQ onApplicationPool = TaskQ.builder(eight).config(settings().build()).build();
        TaskQ onOwnPool = TaskQ.builder().config(owned).maintenance(false).build()) {
      onApplicationPool.register(noop());
      onOwnPool.register(noop());
      onApplicationPool.start();
      onOwnPool.start();

      assertThat(logs.of(POOL_BUDGET)).isEmpty();
    }
  }

  @Test
  void httpPortWithoutTheMetricsModule_andRedisUrlWithoutTheRedisModule_areBothRefused() {
    assertThat(onClassPath("io.taskq.metrics.TaskQObservability")).isFalse();
    assertThat(onClassPath("io.taskq.redis.RedisConnector")).isFalse();
    TaskQConfig config =
        settings().httpPort(8099).redisUrl("redis://:hunter2@127.0.0.1:6379/0").build();
    try (TaskQ taskq = TaskQ.builder(services.dataSource()).config(config).build()) {
      taskq.register(noop());

      TaskQConfigException refused = (TaskQConfigException) catchStart(taskq);

      assertThat(refused.problems())
          .extracting(TaskQConfigException.Problem::variables)
          .containsExactly(List.of("TASKQ_HTTP_PORT"), List.of("TASKQ_REDIS_URL"));
      assertThat(refused.getMessage())
          .contains("TASKQ_HTTP_PORT=8099", "io.taskq:taskq-metrics, is not on the class path")
          .contains("TASKQ_REDIS_URL is set", "io.taskq:taskq-redis, is not on the class path")
          .doesNotContain("hunter2");
    }
  }

  private HikariDataSource pool(int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(services.jdbcUrl());
    config.setMaximumPoolSize(size);
    config.setPoolName("app-" + size);
    return new HikariDataSource(config);
  }

  private static Throwable catchStart(TaskQ taskq) {
    try {
      taskq.start();
    } catch (Exception e) {
      return e;
    }
    throw new AssertionError("start() did not throw");
  }

  private long workerRows() throws Exception {
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_tables WHERE schemaname = '"
                    + services.schema()
                    + "' AND tablename = 'workers'")) {
      rs.next();
      if (rs.getLong(1) == 0) {
        return 0;
      }
    }
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT count(*) FROM \"" + services.schema() + "\".workers")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static boolean onClassPath(String name) {
    try {
      Class.forName(name);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
