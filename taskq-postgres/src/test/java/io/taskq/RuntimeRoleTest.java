package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.operations.SchemaStatus;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A7: two roles. An owner role (allowed to create in the database) migrates the schema; a runtime
 * role with only USAGE on the schema and DML on its tables (the GRANTs of docs/operations.md) runs
 * TaskQ on it with TASKQ_MIGRATE=verify and =apply (nothing pending), a worker and the maintenance
 * leader included, and cannot migrate a schema that is behind. The roles are made for this class
 * with unique names and dropped after it.
 */
@TaskQTest
@Tag("A7")
class RuntimeRoleTest {
  private static String owner;
  private static String runtime;
  private static String schema;
  private static String baseUrl;

  @BeforeAll
  static void roles(TestServices services) throws SQLException {
    String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    owner = "taskq_owner_" + suffix;
    runtime = "taskq_runtime_" + suffix;
    schema = "rt_" + suffix;
    baseUrl =
        services
            .jdbcUrl()
            .replaceAll("([?&])(user|password)=[^&]*&?", "$1")
            .replaceAll("[?&]+$", "");
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE " + owner + " LOGIN");
      s.execute("CREATE ROLE " + runtime + " LOGIN");
      s.execute("GRANT CREATE ON DATABASE " + c.getCatalog() + " TO " + owner);
    }
  }

  @AfterAll
  static void dropRoles(TestServices services) throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      for (String role : new String[] {runtime, owner}) {
        s.execute("DROP OWNED BY " + role);
        s.execute("DROP ROLE " + role);
      }
    }
  }

  private static String url(String role) {
    return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "user=" + role;
  }

  private static TaskQConfig config(String role, String migrate) {
    return TaskQConfig.builder()
        .databaseUrl(url(role))
        .schemaName(schema)
        .migrate(migrate)
        .pollInterval(Duration.ofMillis(200))
        .build();
  }

  @Test
  void theRuntimeRole_runsTaskQOnACurrentSchema_withUsageAndDmlOnly() throws Exception {
    try (TaskQ migrator = TaskQ.builder().config(config(owner, "apply")).build()) {
      assertThat(migrator.migrations().apply()).contains("V001__jobs.sql");
    }
    grantRuntime();
    for (String mode : new String[] {"verify", "apply"}) {
      try (TaskQ taskq = TaskQ.builder().config(config(runtime, mode)).build()) {
        taskq.register(Actor.rawJson("echo", (json, ctx) -> json));
        taskq.start();
        long id = taskq.jobs().enqueue(JobRequest.of("echo", "{\"mode\": \"" + mode + "\"}"));
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () -> taskq.jobs().find(id).orElseThrow().status().dbValue().equals("succeeded"));
        SchemaStatus status = taskq.migrations().verify();
        assertThat(status.isCurrent()).isTrue();
        assertThat(taskq.operations().counts().total()).isPositive();
        // The leader, as the runtime role, upserts its sweep health (V012's table, DML only).
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    taskq.operations().sweepHealth().sweeps().stream()
                        .anyMatch(
                            h ->
                                h.name().equals("scheduled_to_pending")
                                    && h.freshness()
                                        == io.taskq.operations.SweepHealth.Freshness.CURRENT));
      }
    }
    try (Connection c = DriverManager.getConnection(url(runtime));
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("CREATE TABLE " + schema + ".nope (id int)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("permission denied");
    }
  }

  @Test
  void verify_refusesToStartOnASchemaThatIsBehind() {
    String behind = schema + "_behind";
    TaskQConfig config =
        TaskQConfig.builder().databaseUrl(url(owner)).schemaName(behind).migrate("verify").build();
    try (TaskQ taskq = TaskQ.builder().config(config).build()) {
      taskq.register(Actor.rawJson("echo", (json, ctx) -> json));
      assertThatThrownBy(taskq::start)
          .isInstanceOf(SchemaMigrationException.class)
          .hasMessageContaining("pending")
          .hasMessageContaining("V001__jobs.sql");
      assertThat(taskq.migrations().status().currentVersion()).isZero();
    }
  }

  /** The runtime role's GRANTs, as docs/operations.md lists them. */
  private static void grantRuntime() throws SQLException {
    try (Connection c = DriverManager.getConnection(url(owner));
        Statement s = c.createStatement()) {
      for (String grant : RuntimeRoleGrants.statements(schema, runtime)) {
        s.execute(grant);
      }
    }
  }
}
