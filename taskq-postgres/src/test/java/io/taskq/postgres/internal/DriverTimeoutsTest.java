package io.taskq.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.lang.reflect.Field;
import java.net.Socket;
import java.sql.Connection;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;
import org.postgresql.core.PGStream;
import org.postgresql.core.QueryExecutorBase;
import org.postgresql.jdbc.PgConnection;

/**
 * D10 as PgJDBC and HikariCP see it, not as a string copied from the code: the properties of the
 * pool TaskQ builds are parsed by {@link org.postgresql.Driver#parseURL}, and real connections of
 * the pool and of the leader source report their socket timeout and have {@code SO_KEEPALIVE} on. A
 * misspelt property name is ignored by the driver, which these readings catch.
 */
@TaskQTest
@Tag("D10")
class DriverTimeoutsTest {
  private static final Duration SOCKET = Duration.ofSeconds(47);
  private static final Duration CONNECT = Duration.ofSeconds(7);
  private static final Duration KEEPALIVE = Duration.ofSeconds(41);

  private static TaskQConfig config(TestServices services) {
    return TaskQConfig.builder()
        .schemaName(services.schema())
        .databaseUrl(services.jdbcUrl())
        .databasePoolSize(2)
        .socketTimeout(SOCKET)
        .connectTimeout(CONNECT)
        .databaseKeepaliveTime(KEEPALIVE)
        .build();
  }

  @Test
  void theOwnedPool_carriesTheTimeoutsAsTheDriverParsesThem() throws Exception {
    try (HikariDataSource pool = OwnedPool.open(config(services()))) {
      assertThat(pool.getKeepaliveTime()).isEqualTo(KEEPALIVE.toMillis());

      Properties parsed =
          org.postgresql.Driver.parseURL(pool.getJdbcUrl(), pool.getDataSourceProperties());
      assertThat(parsed).isNotNull();
      assertThat(PGProperty.SOCKET_TIMEOUT.getInt(parsed)).isEqualTo(SOCKET.toSeconds());
      assertThat(PGProperty.CONNECT_TIMEOUT.getInt(parsed)).isEqualTo(CONNECT.toSeconds());
      assertThat(PGProperty.TCP_KEEP_ALIVE.getBoolean(parsed)).isTrue();

      try (Connection c = pool.getConnection()) {
        assertThat(c.getNetworkTimeout()).isEqualTo(SOCKET.toMillis());
        assertThat(socketOf(c).getKeepAlive()).isTrue();
      }
    }
  }

  @Test
  void theLeaderConnection_hasTheSocketTimeoutAndKeepAliveOnItsSocket() throws Exception {
    LeaderConnectionSource source = LeaderConnectionSource.fromConfig(config(services())).get();
    try (Connection c = source.open()) {
      assertThat(c.getNetworkTimeout()).isEqualTo(SOCKET.toMillis());
      assertThat(socketOf(c).getKeepAlive()).isTrue();
    }
  }

  private TestServices services;

  @org.junit.jupiter.api.BeforeEach
  void setUp(TestServices services) {
    this.services = services;
  }

  private TestServices services() {
    return services;
  }

  /** The TCP socket under a PgJDBC connection (the driver offers no getter for it). */
  private static Socket socketOf(Connection c) throws Exception {
    QueryExecutorBase executor =
        (QueryExecutorBase) c.unwrap(PgConnection.class).getQueryExecutor();
    Field stream = QueryExecutorBase.class.getDeclaredField("pgStream");
    stream.setAccessible(true);
    return ((PGStream) stream.get(executor)).getSocket();
  }
}
