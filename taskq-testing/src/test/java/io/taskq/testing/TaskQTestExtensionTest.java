package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a test class sees while it runs under {@link TaskQTest}. */
@TaskQTest
@Tag("Q3")
class TaskQTestExtensionTest {
  private static TestServices fromBeforeAll;

  @BeforeAll
  static void remember(TestServices services) {
    fromBeforeAll = services;
  }

  @Test
  void schema_existsWhileTheClassRuns(TestServices services) throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM pg_namespace WHERE nspname = ?")) {
      s.setString(1, services.schema());
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
      }
    }
  }

  @Test
  void schema_isNamedAfterTheClassAndIsAPlainIdentifier(TestServices services) {
    assertThat(services.schema()).matches("t_taskqtestextensiontest_[0-9a-f]{10}");
    assertThat(SchemaName.problem(services.schema())).isNull();
  }

  @Test
  void everyMethod_seesTheServicesTheClassGotBeforeAll(TestServices services) {
    assertThat(services).isSameAs(fromBeforeAll);
  }

  @Test
  void dataSource_isASmallHikariPool(TestServices services) {
    assertThat(services.dataSource()).isInstanceOf(HikariDataSource.class);
    HikariDataSource pool = (HikariDataSource) services.dataSource();
    assertThat(pool.getMaximumPoolSize()).isEqualTo(4);
    assertThat(pool.getMinimumIdle()).isZero();
  }

  @Test
  void dataSource_leavesTheSchemaOffTheSearchPath(TestServices services) throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT array_to_string(current_schemas(true), ',')")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1).split(",")).doesNotContain(services.schema());
    }
  }

  @Test
  void tablesCreatedThroughThePool_landInTheSchema(TestServices services) throws SQLException {
    String table = SchemaName.of(services.schema()).quoted() + ".probe";
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int)");
      try (ResultSet rs =
          s.executeQuery(
              "SELECT table_schema FROM information_schema.tables WHERE table_name = 'probe'"
                  + " AND table_schema = '"
                  + services.schema()
                  + "'")) {
        assertThat(rs.next()).isTrue();
      }
      s.execute("DROP TABLE " + table);
    }
  }

  @Test
  void jdbcUrl_opensAConnectionOfItsOwnToTheSameDatabase(TestServices services)
      throws SQLException {
    String pooledDatabase;
    try (Connection c = services.dataSource().getConnection()) {
      pooledDatabase = c.getCatalog();
    }
    try (Connection c = DriverManager.getConnection(services.jdbcUrl());
        PreparedStatement s =
            c.prepareStatement(
                "SELECT current_database(), count(*) FROM pg_namespace" + " WHERE nspname = ?")) {
      s.setString(1, services.schema());
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo(pooledDatabase);
        assertThat(rs.getInt(2)).isEqualTo(1);
      }
    }
  }

  @Test
  void redisPrefix_isTheM5PrefixOfTheSchema(TestServices services) {
    assertThat(services.redisPrefix()).isEqualTo("taskq:" + services.schema() + ":");
  }

  @Test
  void redisUri_reachesARedisThatStoresKeysUnderThePrefix(TestServices services) {
    RedisClient client = RedisClient.create(services.redisUri());
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      String key = services.redisPrefix() + "rl:tb:api";
      c.sync().set(key, "7");
      assertThat(c.sync().get(key)).isEqualTo("7");
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Nested
  class WhenNested {
    @Test
    void nestedClass_sharesTheEnclosingClassServices(TestServices services) {
      assertThat(services).isSameAs(fromBeforeAll);
    }
  }
}
