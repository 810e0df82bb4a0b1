package io.taskq.postgres.internal.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import io.taskq.postgres.testing.Db;
import io.taskq.postgres.testing.ScratchDatabase;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("U1")
@Tag("M3")
class MigrationsTest {
  private static final List<String> V1_TABLES =
      List.of(
          "actor_config",
          "job_attempts",
          "job_events",
          "jobs",
          "jobs_archive",
          "schema_migrations",
          "workers");

  @Test
  void freshSchema_getsEveryTableAndRecordsEachVersionWithItsChecksum(TestServices services) {
    Db db = new Db(services.dataSource());
    String name = Db.uniqueName(services.schema() + "_fresh");
    try {
      List<Migration> applied = Migrations.apply(services.dataSource(), SchemaName.of(name));

      assertThat(applied).isEqualTo(MigrationIndex.builtIn().migrations());
      assertThat(db.tables(name)).containsAll(V1_TABLES);
      assertThat(
              db.queryColumn(
                  "SELECT version || ':' || name || ':' || checksum FROM \""
                      + name
                      + "\".schema_migrations ORDER BY version"))
          .containsExactlyElementsOf(
              applied.stream()
                  .map(m -> m.version() + ":" + m.name() + ":" + m.checksum())
                  .toList());
    } finally {
      db.dropSchema(name);
    }
  }

  @Test
  void secondRun_appliesNothing(TestServices services) {
    SchemaName schema = SchemaName.of(services.schema());
    Migrations.apply(services.dataSource(), schema);

    assertThat(Migrations.apply(services.dataSource(), schema)).isEmpty();
    assertThat(
            new Db(services.dataSource())
                .queryLong("SELECT count(*) FROM " + schema.quoted() + ".schema_migrations"))
        .isEqualTo(MigrationIndex.builtIn().migrations().size());
  }

  @Test
  void concurrentStarters_applyOnceAndAllSucceed(TestServices services) throws Exception {
    Db db = new Db(services.dataSource());
    String name = Db.uniqueName(services.schema() + "_race");
    SchemaName schema = SchemaName.of(name);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      CountDownLatch gate = new CountDownLatch(1);
      List<Future<List<Migration>>> results = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        results.add(
            pool.submit(
                () -> {
                  gate.await();
                  return Migrations.apply(services.dataSource(), schema);
                }));
      }
      gate.countDown();
      List<List<Migration>> applied = new ArrayList<>();
      for (Future<List<Migration>> f : results) {
        applied.add(f.get(60, TimeUnit.SECONDS));
      }

      assertThat(applied.stream().filter(a -> !a.isEmpty()).toList())
          .containsExactly(MigrationIndex.builtIn().migrations());
      assertThat(db.queryLong("SELECT count(*) FROM \"" + name + "\".schema_migrations"))
          .isEqualTo(MigrationIndex.builtIn().migrations().size());
    } finally {
      pool.shutdownNow();
      db.dropSchema(name);
    }
  }

  @Test
  void databaseNewerThanTheCode_isRefusedNamingBothVersions(TestServices services) {
    Db db = new Db(services.dataSource());
    String name = Db.uniqueName(services.schema() + "_newer");
    SchemaName schema = SchemaName.of(name);
    try {
      Migrations.apply(services.dataSource(), schema);
      db.update(
          "INSERT INTO \""
              + name
              + "\".schema_migrations (version, name, checksum)"
              + " VALUES (999, 'from_the_future', 'x')");

      assertThatThrownBy(() -> Migrations.apply(services.dataSource(), schema))
          .isInstanceOf(SchemaMigrationException.class)
          .hasMessageContaining("at migration version 999")
          .hasMessageContaining("latest migration version " + Migrations.latestVersion())
          .hasMessageContaining(schema.quoted());
    } finally {
      db.dropSchema(name);
    }
  }

  @Test
  void changedChecksumOfAnAppliedFile_failsNamingTheFile(TestServices services) {
    Db db = new Db(services.dataSource());
    String name = Db.uniqueName(services.schema() + "_sum");
    SchemaName schema = SchemaName.of(name);
    try {
      Migrations.apply(services.dataSource(), schema);
      db.update("UPDATE \"" + name + "\".schema_migrations SET checksum = 'abc' WHERE version = 1");

      assertThatThrownBy(() -> Migrations.apply(services.dataSource(), schema))
          .isInstanceOf(SchemaMigrationException.class)
          .hasMessageContaining("V001__jobs.sql")
          .hasMessageContaining("checksum abc")
          .hasMessageContaining(MigrationIndex.builtIn().migrations().get(0).checksum());
    } finally {
      db.dropSchema(name);
    }
  }

  @Test
  void failingMigration_rollsBackAloneAndTheNextRunContinues(TestServices services) {
    Db db = new Db(services.dataSource());
    String name = Db.uniqueName(services.schema() + "_broken");
    SchemaName schema = SchemaName.of(name);
    Migrations broken = new Migrations(load("broken"), Duration.ofSeconds(30));
    Migrations good = new Migrations(load("good"), Duration.ofSeconds(30));
    try {
      assertThatThrownBy(() -> broken.applyTo(services.dataSource(), schema))
          .isInstanceOf(SchemaMigrationException.class)
          .hasMessageContaining("V002__second.sql")
          .hasMessageContaining("22012");
      assertThat(db.tables(name)).containsExactly("first", "schema_migrations");

      assertThat(good.applyTo(services.dataSource(), schema))
          .extracting(Migration::fileName)
          .containsExactly("V002__second.sql");
      assertThat(db.tables(name)).containsExactly("first", "schema_migrations", "second");
    } finally {
      db.dropSchema(name);
    }
  }

  @Test
  void callersConnection_mustBeInAutoCommitAndStaysOpen(TestServices services) throws Exception {
    Db db = new Db(services.dataSource());
    String name = Db.uniqueName(services.schema() + "_conn");
    SchemaName schema = SchemaName.of(name);
    try (Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      assertThatThrownBy(() -> Migrations.apply(c, schema))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("auto-commit");
      c.setAutoCommit(true);

      assertThat(Migrations.apply(c, schema)).isNotEmpty();
      assertThat(c.isClosed()).isFalse();
      assertThat(c.getAutoCommit()).isTrue();
      assertThat(
              db.queryLong(
                  "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = ?",
                  c.unwrap(org.postgresql.PGConnection.class).getBackendPID()))
          .isZero();
    } finally {
      db.dropSchema(name);
    }
  }

  @Test
  void oddSchemaNames_areCreatedAndMigratedThroughQuoting(TestServices services) throws Exception {
    try (ScratchDatabase scratch = ScratchDatabase.create(services.jdbcUrl())) {
      Db db = new Db(scratch.dataSource());
      for (String name : List.of("My-Schema", "a b", "user")) {
        assertThat(Migrations.apply(scratch.dataSource(), SchemaName.of(name))).isNotEmpty();
        assertThat(db.tables(name)).as(name).containsAll(V1_TABLES);
        assertThat(Migrations.apply(scratch.dataSource(), SchemaName.of(name))).isEmpty();
      }
    }
  }

  @Test
  void indexOutOfOrder_isRejectedNamingTheLine() {
    assertThatThrownBy(() -> load("misordered"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("line 3")
        .hasMessageContaining("version 1 does not follow");
  }

  @Test
  void checksum_ignoresCarriageReturns() {
    assertThat(MigrationIndex.sha256(MigrationIndex.normalise("a\r\nb\n")))
        .isEqualTo(MigrationIndex.sha256("a\nb\n"));
  }

  private static MigrationIndex load(String which) {
    return MigrationIndex.load("io/taskq/postgres/testmigrations/" + which);
  }
}
