package io.taskq.testing.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The private servers start, freeze, thaw and restart as documented (R8). */
@Tag("R8")
class PrivateServersTest {

  @Test
  void privateRedis_answers_freezes_thaws_andComesBackAfterAKill() {
    try (PrivateRedis redis = PrivateRedis.start()) {
      assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
      assertThat(redis.port()).isNotEqualTo(6379);
      assertThat(ping(redis)).isEqualTo("PONG");

      redis.freeze();
      assertThatThrownBy(() -> ping(redis, Duration.ofMillis(500)))
          .isInstanceOf(RuntimeException.class);
      redis.thaw();
      assertThat(ping(redis)).isEqualTo("PONG");

      redis.kill();
      redis.restart();
      assertThat(ping(redis)).isEqualTo("PONG");
    }
  }

  private static String ping(PrivateRedis redis) {
    return ping(redis, Duration.ofSeconds(10));
  }

  private static String ping(PrivateRedis redis, Duration timeout) {
    RedisURI uri = RedisURI.create(redis.uri());
    uri.setTimeout(timeout);
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      return c.sync().ping();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
    }
  }

  @Test
  void privatePostgres_answers_freezes_thaws_andSurvivesAnImmediateRestart() throws Exception {
    try (PrivatePostgres pg = PrivatePostgres.start(java.util.List.of("application_name=x"))) {
      assertThat(pg.port()).isNotEqualTo(5432);
      try (Connection c = connect(pg)) {
        exec(c, "CREATE TABLE kept (id int)");
        exec(c, "INSERT INTO kept VALUES (1)");
        assertThat(backends(c)).isPositive();

        pg.freeze();
        assertThatThrownBy(() -> connect(pg)).isInstanceOf(SQLException.class);
        pg.thaw();
        assertThat(c.isValid(5)).isTrue();
      }

      pg.restartImmediately();
      try (Connection c = connect(pg);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*) FROM kept")) {
        rs.next();
        assertThat(rs.getInt(1)).isEqualTo(1);
      }
    }
  }

  private static Connection connect(PrivatePostgres pg) throws SQLException {
    Properties props = new Properties();
    props.setProperty("connectTimeout", "2");
    props.setProperty("loginTimeout", "2");
    props.setProperty("socketTimeout", "5");
    return DriverManager.getConnection(pg.jdbcUrl(), props);
  }

  private static void exec(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long backends(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
