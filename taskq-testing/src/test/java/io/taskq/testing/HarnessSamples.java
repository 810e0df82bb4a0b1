package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Sample test classes that {@link HarnessLifecycleTest} runs through the JUnit engine test kit, to
 * look at what the harness leaves behind once a class has finished. Surefire never runs them on its
 * own: they are nested classes of a class whose name is not a test name.
 */
final class HarnessSamples {
  /** Every {@link TestServices} a sample was handed, in order. */
  static final Queue<TestServices> seen = new ConcurrentLinkedQueue<>();

  /** Connections a sample deliberately left open, for the caller to close. */
  static final Queue<Connection> leftOpen = new ConcurrentLinkedQueue<>();

  private HarnessSamples() {}

  static void reset() {
    seen.clear();
  }

  /** Records the services and leaves a table in the schema and a key under the prefix. */
  static void touch(TestServices services) throws SQLException {
    seen.add(services);
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + table(services) + " (id int)");
      s.execute("INSERT INTO " + table(services) + " VALUES (1)");
    }
    RedisClient client = RedisClient.create(services.redisUri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      assertThat(c.sync().set(services.redisPrefix() + "marker", "1")).isEqualTo("OK");
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  static String table(TestServices services) {
    return SchemaName.of(services.schema()).quoted() + ".marker";
  }

  @TaskQTest
  static class RecordsItsServices {
    @Test
    void first(TestServices services) throws SQLException {
      touch(services);
    }

    @Test
    void second(TestServices services) throws SQLException {
      touch(services);
    }
  }

  @TaskQTest
  static class AlsoRecordsItsServices {
    @Test
    void only(TestServices services) throws SQLException {
      touch(services);
    }
  }

  @TaskQTest
  static class FailsAfterTouching {
    @Test
    void fails(TestServices services) throws SQLException {
      touch(services);
      throw new AssertionError("deliberate failure");
    }
  }

  @TaskQTest
  static class HasNestedClass {
    @Test
    void outer(TestServices services) throws SQLException {
      touch(services);
    }

    @Nested
    class Inner {
      @Test
      void inner(TestServices services) throws SQLException {
        touch(services);
      }
    }
  }

  @TaskQTest
  static class LeavesPooledConnectionInTransaction {
    @Test
    void leaks(TestServices services) throws SQLException {
      touch(services);
      Connection c = services.dataSource().getConnection();
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("LOCK TABLE " + table(services) + " IN ACCESS EXCLUSIVE MODE");
      }
    }
  }

  @TaskQTest
  static class HoldsItsOwnConnectionInTransaction {
    @Test
    void holds(TestServices services) throws SQLException {
      touch(services);
      Connection c = DriverManager.getConnection(services.jdbcUrl());
      leftOpen.add(c);
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("LOCK TABLE " + table(services) + " IN ACCESS EXCLUSIVE MODE");
      }
    }
  }

  @TaskQTest(poolSize = 2)
  static class AsksForASmallerPool {
    @Test
    void records(TestServices services) {
      seen.add(services);
    }
  }

  @TaskQTest(poolSize = 0)
  static class AsksForAnEmptyPool {
    @Test
    void neverRuns(TestServices services) {
      seen.add(services);
    }
  }
}
