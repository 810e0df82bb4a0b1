package io.taskq.postgres.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.TaskQConfig;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * R2 (D8), found by the fault suite ({@code PgBouncerTest}, taskq-faults): the pooler probe can
 * miss a transaction pooler that other clients use at the same moment (two worker processes
 * starting together behind one PgBouncer: the backend the probe's first session freed was taken by
 * another client before the second session asked, and given back before the first asked again).
 * TaskQ's pool then kept PgJDBC's {@code prepareThreshold=5} and a worker's start failed on its
 * registration's commit with {@code prepared statement "S_1" already exists}. A direct URL is set
 * only to get around a pooler, so with one TaskQ's own pool uses {@code prepareThreshold=0}
 * whatever the probe saw, unless {@code TASKQ_DATABASE_URL} sets it.
 */
@TaskQTest
@Tag("R2")
@Tag("D8")
class DirectUrlPrepareThresholdTest {
  private static TaskQConfig.Builder settings(TestServices services) {
    return TaskQConfig.builder()
        .schemaName(services.schema())
        .databaseUrl(services.jdbcUrl())
        .databasePoolSize(1);
  }

  @Test
  void withADirectUrl_theOwnedPoolUsesNoNamedStatements_evenWhenTheProbeSawNoPooler(
      TestServices services) throws Exception {
    TaskQConfig config = settings(services).databaseDirectUrl(services.jdbcUrl()).build();
    try (HikariDataSource pool = OwnedPool.open(config, false)) {
      assertThat(prepareThreshold(pool)).isZero();
    }
  }

  @Test
  void withoutADirectUrl_andNoPoolerSeen_theDriversDefaultStays(TestServices services)
      throws Exception {
    try (HikariDataSource pool = OwnedPool.open(settings(services).build(), false)) {
      assertThat(prepareThreshold(pool)).isEqualTo(5);
    }
  }

  @Test
  void withADirectUrl_theUrlsOwnPrepareThresholdWins(TestServices services) throws Exception {
    String url = services.jdbcUrl();
    TaskQConfig config =
        settings(services)
            .databaseUrl(url + (url.contains("?") ? "&" : "?") + "prepareThreshold=3")
            .databaseDirectUrl(url)
            .build();
    try (HikariDataSource pool = OwnedPool.open(config, false)) {
      assertThat(prepareThreshold(pool)).isEqualTo(3);
    }
  }

  private static int prepareThreshold(HikariDataSource pool) throws Exception {
    try (Connection c = pool.getConnection()) {
      return c.unwrap(PGConnection.class).getPrepareThreshold();
    }
  }
}
